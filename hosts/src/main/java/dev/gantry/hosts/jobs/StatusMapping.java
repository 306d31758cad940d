package dev.gantry.hosts.jobs;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.util.OptionalInt;

/**
 * Maps a job directory's files to a status. Markers win over the exit file: a job cancelled or evicted while it ran
 * may still exit (it caught SIGTERM, saved a checkpoint and exited 0), and it is still CANCELLED or PREEMPTED.
 */
public final class StatusMapping {
    public static final int COMMAND_NOT_FOUND = 127;
    public static final int NOT_EXECUTABLE = 126;
    /** The eviction reason of a job whose process vanished on a Spot host without recording anything. */
    static final String VANISHED_ON_SPOT = "process vanished on a Spot VM";

    private StatusMapping() {
    }

    public static JobStatus map(JobSnapshot job) {
        return map(job, false);
    }

    /**
     * As {@link #map(JobSnapshot)}, for a job on a host that may be a spot VM: when its process vanished without an
     * exit code there, the VM was most likely evicted (and is back, or the job's files survived on a shared disk),
     * so the job is PREEMPTED and resumable rather than FAILED.
     */
    public static JobStatus map(JobSnapshot job, boolean spotHost) {
        if (job.cancelled()) {
            return status(JobState.CANCELLED, job.exitCode(), "cancelled on request", job);
        }
        if (job.preempted().isPresent()) {
            String reason = job.preempted().get().strip();
            return status(JobState.PREEMPTED, job.exitCode(),
                    "evicted" + (reason.isEmpty() ? "" : ": " + reason) + "; resumable from its last checkpoint", job)
                    .withEviction(new Eviction(evictedAt(job), reason.isEmpty() ? "evicted" : reason));
        }
        if (job.exitCode().isPresent()) {
            int code = job.exitCode().getAsInt();
            if (code == 0) {
                return status(JobState.SUCCEEDED, job.exitCode(), "exited with code 0", job);
            }
            return status(JobState.FAILED, job.exitCode(), failure(code, job.program()), job);
        }
        if (!job.launched() || job.pid().isEmpty()) {
            return status(JobState.PENDING, OptionalInt.empty(), job.launched() ? "starting"
                    : "recorded but not started (the submitting process stopped first); submit again with the same "
                    + "idempotency key to start it", job);
        }
        if (job.alive()) {
            return status(JobState.RUNNING, OptionalInt.empty(), "running as process group " + job.pid().getAsLong(),
                    job);
        }
        if (spotHost) {
            return status(JobState.PREEMPTED, OptionalInt.empty(), "process ended without recording an exit code on "
                    + "a spot VM: taken as an eviction; resumable from its last checkpoint", job)
                    .withEviction(new Eviction(evictedAt(job), VANISHED_ON_SPOT));
        }
        return status(JobState.FAILED, OptionalInt.empty(),
                "process ended without recording an exit code (host rebooted or killed?)", job);
    }

    /**
     * When the job was evicted: the eviction marker's time (the job's end, when its process exited after the
     * marker); for a process that vanished without any record, its start, the last time known.
     */
    private static Instant evictedAt(JobSnapshot job) {
        return job.ended().or(job::started).orElse(Instant.EPOCH);
    }

    private static String failure(int code, String program) {
        return switch (code) {
            case COMMAND_NOT_FOUND -> "command not found: " + program;
            case NOT_EXECUTABLE -> "command not executable (permission denied?): " + program;
            default -> code > 128 && code < 160 ? "exited with code " + code + " (killed by signal " + (code - 128)
                    + ")" : "exited with code " + code;
        };
    }

    private static JobStatus status(JobState state, OptionalInt exit, String message, JobSnapshot job) {
        return new JobStatus(state, exit, message, job.started(), state.isTerminal() ? job.ended() : java.util.Optional.empty());
    }
}
