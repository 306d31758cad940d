package dev.gantry.backend.manual.internal.placement;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Refuses a multi-host placement whose hosts see one work directory (an NFS-shared home, as on many clusters): the
 * ranks would share the job's directory and all but one would never run. A marker written on the first host and
 * looked for on the others tells, at one remote command per host.
 */
public final class SharedWorkDirCheck {
    private SharedWorkDirCheck() {
    }

    public static void require(List<FleetHost> hosts) {
        if (hosts.size() < 2) {
            return;
        }
        FleetHost first = hosts.get(0);
        String marker = first.workDir() + "/.gantry-host-" + UUID.randomUUID();
        // Rank 0 may land on a host that has run nothing yet, whose work directory does not exist.
        first.host().createDirectory(first.workDir());
        first.host().writeAtomically(marker, first.name() + "\n");
        try {
            List<String> sharing = new ArrayList<>();
            for (FleetHost other : hosts.subList(1, hosts.size())) {
                String theirs = other.workDir() + marker.substring(first.workDir().length());
                if (other.host().exists(theirs)) {
                    sharing.add(other.name());
                }
            }
            if (!sharing.isEmpty()) {
                throw new GantryException(ErrorCode.PLAN_REJECTED, "hosts " + first.name() + " and "
                        + String.join(", ", sharing) + " share the work directory " + first.workDir()
                        + " (a shared file system), so the ranks of one job would share one job directory; give "
                        + "each host a work directory on local disk (backends.manual.hosts[*].workDir or "
                        + "defaults.workDir)");
            }
        } finally {
            first.host().delete(marker);
        }
    }
}
