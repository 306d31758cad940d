package dev.gantry.backend.manual.internal.status;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.stop.JobStops;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.ScheduledEvent;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.RankPlacement;
import dev.gantry.hosts.jobs.StatusMapping;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Job statuses from one scan per host, whatever the number of jobs; the hosts' Scheduled Events are read in the
 * same poll and a Preempt event evicts what runs on its host. Ranks of a job that broke (a rank failed, was evicted
 * or its host vanished) while others still run are stopped here, so a broken distributed job does not hold its
 * hosts.
 */
public final class JobStatuses {
    private final Fleet fleet;
    private final JobStops stops;
    private final BackendContext context;

    public JobStatuses(Fleet fleet, JobStops stops, BackendContext context) {
        this.fleet = fleet;
        this.stops = stops;
        this.context = context;
    }

    /**
     * The jobs' statuses from one scan per host; UNKNOWN for a job no host that answered has. BACKEND_UNAVAILABLE
     * when no host answered at all: such a poll says nothing about any job.
     */
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<String, FleetHost.Scan> scans = pollScans();
        if (scans.values().stream().allMatch(scan -> scan.error().isPresent())) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "no host of the inventory answered: "
                    + String.join("; ", JobRanks.unreachable(scans)));
        }
        return statusesIn(jobs, scans);
    }

    /**
     * One job's status; JOB_NOT_FOUND when no host has it, BACKEND_UNAVAILABLE when the hosts that answered do not
     * have it and others did not answer (it may be on one of those).
     */
    public JobStatus status(JobRef ref) {
        Map<String, FleetHost.Scan> scans = pollScans();
        JobStatus status = statusesIn(List.of(ref), scans).get(ref);
        if (status.state() == JobState.UNKNOWN) {
            throw missing(ref, scans);
        }
        return status;
    }

    /** The scans of a poll: one per host, after evicting what a Preempt event takes. */
    private Map<String, FleetHost.Scan> pollScans() {
        Map<String, FleetHost.Scan> scans = fleet.scanAll();
        if (scans.values().stream().anyMatch(scan -> scan.preemption().isPresent()) && evict(scans)) {
            scans = fleet.scanAll(false); // the evicted jobs' markers, as every later process will read them
        }
        return scans;
    }

    private GantryException missing(JobRef ref, Map<String, FleetHost.Scan> scans) {
        List<String> unreachable = JobRanks.unreachable(scans);
        if (unreachable.isEmpty() || !ManualBackend.isOurs(ref)) {
            return new GantryException(ErrorCode.JOB_NOT_FOUND, JobRanks.notFound(fleet, ref, scans));
        }
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "job " + ref.id() + " is on none of the hosts "
                + "that answered, and " + unreachable.size() + " host(s) did not: " + String.join("; ", unreachable)
                + "; retry when they are back, or fix their address");
    }

    private Map<JobRef, JobStatus> statusesIn(Collection<JobRef> jobs, Map<String, FleetHost.Scan> scans) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : jobs) {
            Optional<List<MultiHostJob.Rank>> ranks = ManualBackend.isOurs(ref)
                    ? JobRanks.statuses(fleet, ref.id(), scans, context.clock().instant()) : Optional.empty();
            if (ranks.isEmpty()) {
                result.put(ref, JobStatus.of(JobState.UNKNOWN, JobRanks.notFound(fleet, ref, scans)));
                continue;
            }
            List<MultiHostJob.Rank> stop = MultiHostJob.toStop(ranks.get());
            if (!stop.isEmpty()) {
                JobStatus cause = MultiHostJob.aggregate(ranks.get());
                stops.stop(ref.id(), stop, JobDirectory.CANCELLED, "stopped: " + cause.message());
            }
            result.put(ref, withEventProblems(MultiHostJob.aggregate(ranks.get()), ranks.get(), scans));
        }
        return result;
    }

    /**
     * The job's ranks as the hosts show them now; JOB_NOT_FOUND when no host has the job, BACKEND_UNAVAILABLE when
     * the hosts that answered do not have it and others did not answer.
     */
    public List<MultiHostJob.Rank> existing(JobRef ref) {
        Map<String, FleetHost.Scan> scans = fleet.scanAll(false);
        Optional<List<MultiHostJob.Rank>> ranks = ManualBackend.isOurs(ref)
                ? JobRanks.statuses(fleet, ref.id(), scans, context.clock().instant()) : Optional.empty();
        if (ranks.isEmpty()) {
            throw missing(ref, scans);
        }
        return ranks.get();
    }

    /**
     * A Preempt event in a host's Scheduled Events takes the VM and every job on it: each running rank there is
     * evicted, polled or not (SIGTERM so it can checkpoint, PREEMPTED with the event in its message), all at once so
     * that one's grace period does not eat into the next one's; their other ranks are stopped as for any broken
     * job. The event is acknowledged afterwards when the settings say so. Returns whether any rank was evicted
     * (an event stays listed until the VM goes, and later polls find nothing left to stop).
     */
    private boolean evict(Map<String, FleetHost.Scan> scans) {
        List<Runnable> evictions = new ArrayList<>();
        Map<FleetHost, ScheduledEvent> events = new LinkedHashMap<>();
        scans.forEach((name, scan) -> scan.preemption().ifPresent(event -> {
            FleetHost host = fleet.host(name);
            events.put(host, event);
            scan.entries().forEach((id, entry) -> {
                if (StatusMapping.map(entry.snapshot(), true).state() == JobState.RUNNING) {
                    int rank = entry.placement().map(RankPlacement::rank).orElse(0);
                    evictions.add(() -> stops.stop(id, List.of(new MultiHostJob.Rank(rank, name,
                            JobStatus.of(JobState.RUNNING, ""))), JobDirectory.PREEMPTED, event.describe()));
                }
            });
        }));
        fleet.parallel(evictions, Runnable::run);
        events.forEach((host, event) -> host.watch().acknowledge(event).ifPresent(problem ->
                context.logger().log(System.Logger.Level.WARNING, host.name() + ": " + problem)));
        return !evictions.isEmpty();
    }

    /** A running job on a host whose Scheduled Events could not be read says so beside its status. */
    private static JobStatus withEventProblems(JobStatus status, List<MultiHostJob.Rank> ranks,
                                               Map<String, FleetHost.Scan> scans) {
        if (status.state() != JobState.RUNNING) {
            return status;
        }
        List<String> problems = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            FleetHost.Scan scan = scans.get(rank.host());
            if (scan != null) {
                scan.events().flatMap(EvictionWatch.Check::problem).filter(p -> !problems.contains(p))
                        .ifPresent(problems::add);
            }
        }
        return problems.isEmpty() ? status : new JobStatus(status.state(), status.exitCode(), status.message()
                + " (" + String.join("; ", problems) + ")", status.startedAt(), status.endedAt());
    }
}
