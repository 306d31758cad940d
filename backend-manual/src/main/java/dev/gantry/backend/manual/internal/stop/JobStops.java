package dev.gantry.backend.manual.internal.stop;

import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.backend.manual.internal.status.MultiHostJob;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.hosts.jobs.JobDirectory;
import java.util.List;

/** Cancels and evicts jobs: every rank at once, so that one's grace period does not eat into the next one's. */
public final class JobStops {
    private final Fleet fleet;
    private final ManualSettings settings;
    private final BackendContext context;

    public JobStops(Fleet fleet, ManualSettings settings, BackendContext context) {
        this.fleet = fleet;
        this.settings = settings;
        this.context = context;
    }

    public void cancel(JobRef ref, List<MultiHostJob.Rank> ranks) {
        stop(ref.id(), ranks, JobDirectory.CANCELLED, "cancelled on request");
    }

    /** Evicts a job the way a Spot eviction notice would: SIGTERM so it can checkpoint, SIGKILL after the grace. */
    public void preempt(JobRef ref, List<MultiHostJob.Rank> ranks, String reason) {
        stop(ref.id(), ranks, JobDirectory.PREEMPTED, reason);
    }

    /** Stops the given ranks of a job with a marker that says why. */
    public void stop(String id, List<MultiHostJob.Rank> ranks, String marker, String reason) {
        fleet.parallel(ranks, r -> RankStop.stop(fleet, id, r, marker, reason, settings.cancelGrace(), context));
    }
}
