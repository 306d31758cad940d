package dev.gantry.backend.manual.internal.status;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.hosts.jobs.JobRecord;
import dev.gantry.hosts.jobs.JobSnapshot;
import dev.gantry.hosts.jobs.RankPlacement;
import dev.gantry.hosts.jobs.StatusMapping;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * A job's ranks as the hosts' scans show them: where each rank is (from whichever rank's {@code placement} file a
 * reachable host still has) and each rank's own status, a rank on a host that cannot be reached included.
 */
public final class JobRanks {
    private JobRanks() {
    }

    public static boolean allLaunched(String id, List<RankPlacement> ranks, Map<String, FleetHost.Scan> scans) {
        for (RankPlacement rank : ranks) {
            FleetHost.Scan scan = scans.get(rank.host());
            HostScan.Entry entry = scan == null ? null : scan.entries().get(id);
            if (entry == null || !(entry.snapshot().launched() || entry.snapshot().cancelled()
                    || entry.snapshot().preempted().isPresent())) {
                return false;
            }
        }
        return true;
    }

    /** The placement the job's ranks recorded, from whichever of its directories a reachable host still has. */
    public static Optional<List<RankPlacement>> placed(String id, Map<String, FleetHost.Scan> scans,
                                                       boolean placedOnly) {
        List<String> order = null;
        Map<Integer, RankPlacement> own = new TreeMap<>();
        for (Map.Entry<String, FleetHost.Scan> scan : scans.entrySet()) {
            HostScan.Entry entry = scan.getValue().entries().get(id);
            if (entry == null) {
                continue;
            }
            if (entry.placement().isEmpty()) {
                if (placedOnly) {
                    continue;
                }
                // Created but never placed (the submit stopped at once): the rank on this host, alone.
                if (order == null) {
                    order = List.of(scan.getKey());
                }
                continue;
            }
            RankPlacement p = entry.placement().get();
            if (order == null || order.size() < p.world()) {
                order = p.hosts();
            }
            own.put(p.rank(), p);
        }
        if (order == null) {
            return Optional.empty();
        }
        List<RankPlacement> ranks = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            ranks.add(own.getOrDefault(k, new RankPlacement(k, order, List.of(), 0, 0)));
        }
        return Optional.of(ranks);
    }

    /**
     * Every rank's status; empty when no reachable host has the job.
     *
     * @param now when this poll found what it found: the time of an eviction nothing on the host dates
     */
    public static Optional<List<MultiHostJob.Rank>> statuses(Fleet fleet, String id, Map<String, FleetHost.Scan> scans,
                                                      Instant now) {
        Optional<List<RankPlacement>> placement = placed(id, scans, false);
        if (placement.isEmpty()) {
            return Optional.empty();
        }
        List<MultiHostJob.Rank> ranks = new ArrayList<>();
        for (RankPlacement rank : placement.get()) {
            FleetHost.Scan scan = scans.get(rank.host());
            FleetHost host = fleet.find(rank.host()).orElse(null);
            JobStatus status;
            if (scan == null || host == null) {
                status = JobStatus.of(JobState.FAILED, "host " + rank.host() + " is no longer in the inventory");
            } else if (scan.error().isPresent()) {
                status = host.spot()
                        // Nothing on the host says when: the eviction is dated by this poll, which found it gone.
                        ? JobStatus.of(JobState.PREEMPTED, "host vanished (Spot VM, evicted?): " + scan.error().get())
                                .withEviction(new Eviction(now, "host vanished: " + scan.error().get()))
                        : JobStatus.of(JobState.FAILED, "host cannot be reached: " + scan.error().get());
            } else if (!scan.entries().containsKey(id)) {
                status = JobStatus.of(JobState.PENDING, "not created yet (the submit stopped first); submit again "
                        + "with the same idempotency key to start it");
            } else {
                // On a Spot host a process gone without an exit code was most likely evicted with its VM.
                status = StatusMapping.map(withProgram(host, id, scan.entries().get(id).snapshot()),
                        host.spot());
            }
            ranks.add(new MultiHostJob.Rank(rank.rank(), rank.host(), status));
        }
        return Optional.of(ranks);
    }

    /** The program name, read only for the exit codes whose message names it (126, 127): one more command. */
    private static JobSnapshot withProgram(FleetHost host, String id, JobSnapshot s) {
        OptionalInt code = s.exitCode();
        if (code.isEmpty() || code.getAsInt() != StatusMapping.COMMAND_NOT_FOUND
                && code.getAsInt() != StatusMapping.NOT_EXECUTABLE) {
            return s;
        }
        String program = host.directory(id).record().map(JobRecord::program).orElse("");
        return new JobSnapshot(program, s.launched(), s.pid(), s.alive(), s.exitCode(), s.cancelled(),
                s.preempted(), s.started(), s.ended());
    }

    /** The hosts whose scan failed, each with why ({@code gantry-h2: host gantry-h2 (...) cannot be reached: ...}). */
    public static List<String> unreachable(Map<String, FleetHost.Scan> scans) {
        List<String> down = new ArrayList<>();
        scans.forEach((name, scan) -> scan.error().ifPresent(e -> down.add(name + ": " + e)));
        return down;
    }

    public static String notFound(Fleet fleet, JobRef ref, Map<String, FleetHost.Scan> scans) {
        List<String> down = new ArrayList<>();
        scans.forEach((name, scan) -> scan.error().ifPresent(e -> down.add(name)));
        FleetHost first = fleet.first();
        String where = fleet.size() == 1 && !first.remote() ? "in " + first.workDir() : "on any host of the inventory";
        return "no job " + ref.id() + " " + where
                + (ref.backend().equals(ManualBackend.NAME) ? "" : " (the job belongs to backend '" + ref.backend()
                + "')") + (down.isEmpty() ? "" : "; unreachable: " + String.join(", ", down));
    }
}
