package dev.gantry.backend.manual.internal;

import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.doctor.FleetDoctor;
import dev.gantry.backend.manual.internal.placement.FleetCheck;
import dev.gantry.backend.manual.internal.settings.Inventory;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.backend.manual.internal.status.JobStatuses;
import dev.gantry.backend.manual.internal.status.MultiHostJob;
import dev.gantry.backend.manual.internal.status.RankLogs;
import dev.gantry.backend.manual.internal.stop.JobStops;
import dev.gantry.backend.manual.internal.submit.JobSubmission;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.backend.manual.internal.transport.Fleets;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.LocalHost;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The manual backend: jobs of one or more ranks on a fleet of machines the user manages (this machine alone, or
 * SSH hosts), each rank a detached process group in its own job directory on its host. Everything this object
 * knows is read back from the hosts, so any later Gantry process sees the same jobs. Submit, status, logs, cancel
 * and doctor are each a class of their own; this one only routes.
 */
public final class ManualBackend implements Backend {
    public static final String NAME = "manual";
    /** Job ids are the idempotency key with a prefix, so no key ({@code .}, {@code ..}) can name a special file. */
    public static final String ID_PREFIX = "job-";
    private static final Pattern JOB_ID = Pattern.compile(Pattern.quote(ID_PREFIX) + "[A-Za-z0-9._-]{1,128}");

    private final Fleet fleet;
    private final Capabilities capabilities;
    private final FleetCheck check;
    private final JobSubmission submission;
    private final JobStops stops;
    private final JobStatuses statuses;
    private final RankLogs logs;
    private final FleetDoctor doctor;

    ManualBackend(Fleet fleet, ManualSettings settings, BackendContext context, Capabilities capabilities) {
        this.fleet = fleet;
        this.capabilities = capabilities;
        this.check = new FleetCheck(fleet);
        this.submission = new JobSubmission(fleet, settings, context, check);
        this.stops = new JobStops(fleet, settings, context);
        this.statuses = new JobStatuses(fleet, stops, context);
        this.logs = new RankLogs(fleet, ref -> status(ref).state().isTerminal());
        this.doctor = new FleetDoctor(fleet, settings);
    }

    /** The local transport over the given machine (tests pass one that counts its commands). */
    public ManualBackend(Host host, ManualSettings settings, BackendContext context, Capabilities capabilities) {
        this(Fleets.local(host, settings), settings, context, capabilities);
    }

    /** The backend the settings describe; warns loudly about every SSH host whose key is not verified. */
    public static ManualBackend create(ManualSettings settings, BackendContext context, Capabilities capabilities) {
        if (settings.inventory().isEmpty()) {
            return new ManualBackend(LocalHost.detect(), settings, context, capabilities);
        }
        Inventory inventory = settings.inventory().get();
        for (String host : inventory.insecureHosts()) {
            context.logger().log(System.Logger.Level.WARNING, "backends.manual: " + Inventory.INSECURE
                    + " is set for host " + host + ": its identity is NOT verified and a man in the middle would go "
                    + "unnoticed; pin its key with hostKeyFingerprint or knownHosts");
        }
        return new ManualBackend(Fleets.ssh(inventory, settings), settings, context, capabilities);
    }

    public static boolean isOurs(JobRef ref) {
        return ref.backend().equals(NAME) && JOB_ID.matcher(ref.id()).matches();
    }

    void stages(JobSubmission.Stages value) {
        submission.stages(value);
    }

    /** Every host's job directories, one command per host (tests look at ranks with it). */
    Map<String, FleetHost.Scan> scanAll() {
        return fleet.scanAll(false);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    /** Commands run so far on the SSH hosts together; empty for this machine, where a command is a process. */
    @Override
    public OptionalLong remoteCalls() {
        return fleet.remoteCommands();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        return check.problems(plan);
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        return submission.submit(plan, options);
    }

    @Override
    public JobStatus status(JobRef ref) {
        return statuses.status(ref);
    }

    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        return statuses.statuses(jobs);
    }

    @Override
    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        List<MultiHostJob.Rank> ranks;
        try {
            ranks = statuses.existing(ref);
        } catch (GantryException e) {
            // An interrupt while the hosts were asked where the job is cuts their commands short, which reads as
            // hosts that did not answer; it is the caller stopping the follow, and the contract says so.
            if (Thread.interrupted()) {
                InterruptedException stopped = new InterruptedException("stopped before the logs of " + ref.id()
                        + " were read");
                stopped.initCause(e);
                throw stopped;
            }
            throw e;
        }
        logs.deliver(ref, ranks, options, sink);
    }

    @Override
    public void cancel(JobRef ref) {
        stops.cancel(ref, statuses.existing(ref));
    }

    /**
     * Evicts a job on every host the way a Spot eviction notice would (SIGTERM, SIGKILL after the grace period); it
     * then reports PREEMPTED. Tests and the conformance kit call it; on Azure VMs Scheduled Events drive it.
     */
    public void preempt(JobRef ref, String reason) {
        stops.preempt(ref, statuses.existing(ref), reason);
    }

    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        return doctor.reports(plan);
    }

    @Override
    public void close() {
        fleet.close(); // jobs outlive this object; only the connections end
    }
}
