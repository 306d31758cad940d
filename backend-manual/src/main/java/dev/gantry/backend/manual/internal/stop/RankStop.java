package dev.gantry.backend.manual.internal.stop;

import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.backend.manual.internal.status.MultiHostJob;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.jobs.JobDirectory;
import java.time.Duration;

/** Stops one rank of a job on its host: marker first, then its process group. */
public final class RankStop {
    private RankStop() {
    }

    /** Marker first, then SIGTERM to the group, SIGKILL after the grace period. */
    public static void stop(Fleet fleet, String id, MultiHostJob.Rank rank, String marker, String reason,
                     Duration grace, BackendContext context) {
        FleetHost host = fleet.find(rank.host()).orElse(null);
        if (host == null) {
            return;
        }
        try {
            JobDirectory job = host.directory(id);
            if (!job.mark(marker, context.clock().instant(), reason.replace('\n', ' ').replace('\t', ' '))) {
                return;
            }
            try {
                GroupStop.stop(host.host(), job, grace);
            } finally {
                // The runtime's client was in the group, the container itself may not be (its monitor left it).
                host.containers().stopped(job);
            }
        } catch (GantryException e) {
            // A host that cannot be reached cannot be stopped: its rank is reported as lost instead.
            context.logger().log(System.Logger.Level.WARNING, "could not stop rank " + rank.rank() + " on "
                    + rank.host() + ": " + e.getMessage());
        }
    }
}
