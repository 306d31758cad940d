package dev.gantry.backend.manual.internal.stop;

import dev.gantry.hosts.Host;
import dev.gantry.hosts.jobs.JobDirectory;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * Stops a job's process group the way an eviction notice would: SIGTERM, so the job can checkpoint, then SIGKILL
 * once the grace period has passed and anything of the group still runs. The same on every transport.
 */
public final class GroupStop {
    private static final Duration POLL = Duration.ofMillis(50);

    private GroupStop() {
    }

    /** Does nothing for a job not started yet: its wrapper sees the marker and stops before running the command. */
    public static void stop(Host host, JobDirectory job, Duration grace) {
        OptionalLong pgid = job.pgid();
        if (pgid.isEmpty()) {
            return;
        }
        long group = pgid.getAsLong();
        host.signalGroup(group, "TERM");
        long deadline = System.nanoTime() + grace.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (!host.groupAlive(group)) {
                    return;
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        host.signalGroup(group, "KILL");
    }
}
