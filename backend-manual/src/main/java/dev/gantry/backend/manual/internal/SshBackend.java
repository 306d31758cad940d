package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.HostDoctor;
import dev.gantry.hosts.SshHost;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.container.EnvFile;
import dev.gantry.hosts.container.GpuSlice;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.ScheduledEvent;
import dev.gantry.hosts.events.SpotSettings;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.JobVariables;
import dev.gantry.hosts.jobs.JobRecord;
import dev.gantry.hosts.jobs.JobWrapper;
import dev.gantry.hosts.jobs.RankPlacement;
import dev.gantry.hosts.jobs.StatusMapping;
import dev.gantry.ssh.SshPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The manual backend over SSH: an inventory of hosts, placement by free GPUs, CPUs and memory, and jobs of one or
 * more ranks, each rank a detached process group in its own job directory on its host (the same directory layout
 * and wrapper as the local transport). Everything this object knows is read back from the hosts, so any later
 * Gantry process sees the same jobs. One status poll is one remote command per host, whatever the number of jobs.
 */
public final class SshBackend implements Backend {
    private static final Pattern JOB_ID = Pattern.compile(Pattern.quote(ManualBackend.ID_PREFIX)
            + "[A-Za-z0-9._-]{1,128}");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LAUNCH_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration LOG_POLL = Duration.ofMillis(250);

    /** Points of a submit that tests stop at to simulate the submitting process dying there. */
    interface SubmitStages {
        SubmitStages NONE = (stage, rank) -> { };

        /** Called at {@code prepared} (rank's directory and records written) and {@code launched}. */
        void reached(String stage, int rank);
    }

    private final Inventory inventory;
    private final SshFleet fleet;
    private final ManualSettings settings;
    private final BackendContext context;
    private final Capabilities capabilities;
    private volatile SubmitStages stages = SubmitStages.NONE;

    SshBackend(Inventory inventory, SshPool pool, ManualSettings settings, BackendContext context,
               Capabilities capabilities, SpotSettings spot) {
        this.inventory = inventory;
        this.fleet = new SshFleet(inventory, pool, COMMAND_TIMEOUT, spot, settings.container());
        this.settings = settings;
        this.context = context;
        this.capabilities = capabilities;
    }

    /** Binds the inventory from the configuration; warns loudly about every host whose key is not verified. */
    public static SshBackend create(BackendConfig config, ManualSettings settings, BackendContext context,
                                    Capabilities capabilities) {
        for (String local : List.of(SpotSettings.SPOT, SpotSettings.VM_NAME)) {
            if (config.get(local).isPresent()) {
                throw config.invalid(local, "applies to transport local; with transport ssh each host says whether "
                        + "it is a Spot VM (hosts[*].spot or defaults.spot) and its VM name is hosts[*].vmName, "
                        + "or read from its metadata service; move the setting there");
            }
        }
        SpotSettings spot = SpotSettings.bind(config);
        Inventory inventory = Inventory.bind(config, config.get(ManualSettings.WORK_DIR).map(String::strip),
                context::provisionedHosts);
        for (String host : inventory.insecureHosts()) {
            context.logger().log(System.Logger.Level.WARNING, "backends.manual: " + Inventory.INSECURE
                    + " is set for host " + host + ": its identity is NOT verified and a man in the middle would go "
                    + "unnoticed; pin its key with hostKeyFingerprint or knownHosts");
        }
        return new SshBackend(inventory, new SshPool(), settings, context, capabilities, spot);
    }

    void stages(SubmitStages value) {
        this.stages = value;
    }

    /** The hosts, by name, for tests and the benchmark (they count the remote commands each host ran). */
    Map<String, SshHost> hosts() {
        return fleet.byName();
    }

    /** Every host's job directories, one remote command per host (tests look at ranks with it). */
    Map<String, SshFleet.Scan> scanAll() {
        return fleet.scanAll();
    }

    /** Remote commands run so far on all hosts together; the benchmark reports it per status poll. */
    @Override
    public OptionalLong remoteCalls() {
        return OptionalLong.of(fleet.remoteCommands());
    }

    @Override
    public String name() {
        return ManualBackend.NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    /** Checks the plan against the hosts' capacity (jobs running there aside); contacts each host once, cached. */
    @Override
    public List<Problem> validate(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        Placement.Request request = FleetPlacement.request(plan);
        if (request.nodes() > fleet.hosts().size()) {
            problems.add(Problem.of("resources.nodes", "the plan asks for " + request.nodes() + " nodes but the "
                    + "inventory has " + fleet.hosts().size() + " host(s); add hosts or lower nodes"));
        }
        problems.addAll(fleet.containers(fleet.hosts().iterator().next()).problems(plan));
        if (problems.isEmpty()) {
            List<Placement.HostLoad> empty = new ArrayList<>();
            for (SshHost host : fleet.hosts()) {
                empty.add(FleetPlacement.capacity(host, Set.of(), 0, 0));
            }
            try {
                Placement.choose(request, empty);
            } catch (GantryException e) {
                problems.add(Problem.of("resources", "no host of the inventory is large enough even when idle: "
                        + e.getMessage()));
            }
        }
        return problems;
    }

    /**
     * Submits under a claim on the inventory's first host, so that concurrent submits of one key from several
     * processes agree on one placement: the second waits, then finds the ranks the first recorded.
     */
    @Override
    @SuppressWarnings("try") // the claim is held for the whole block, never read
    public JobRef submit(Plan plan, SubmitOptions options) {
        String id = ManualBackend.ID_PREFIX + options.idempotencyKey();
        SshHost coordinator = fleet.hosts().iterator().next();
        AutoCloseable claim;
        try {
            claim = coordinator.lock(coordinator.workDir() + "/.claims/" + id);
        } catch (GantryException e) {
            // The first host is down: submit without the claim rather than not at all; the wrapper's own claim
            // still keeps any rank from running twice on one host.
            context.logger().log(System.Logger.Level.WARNING, "submitting " + id + " without the claim on "
                    + coordinator.name() + ": " + e.getMessage());
            claim = () -> { };
        }
        try (AutoCloseable held = claim) {
            return submitClaimed(plan, options, id);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, "submitting " + id + " failed: " + e.getMessage(), e);
        }
    }

    private JobRef submitClaimed(Plan plan, SubmitOptions options, String id) {
        JobRef ref = new JobRef(ManualBackend.NAME, id);
        Map<String, SshFleet.Scan> scans = fleet.scanAll();
        // Only ranks that recorded their placement bind a retry; a bare directory is placed afresh.
        List<RankPlacement> ranks = JobRanks.placed(id, scans, true).orElse(List.of());
        Workload workload = plan.workload();
        if (!ranks.isEmpty() && JobRanks.allLaunched(id, ranks, scans)) {
            return ref; // a retry of a submit that launched every rank: the same job, nothing new started
        }
        if (ranks.isEmpty()) {
            List<Problem> problems = validate(plan);
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.PLAN_REJECTED, problems);
            }
            ranks = FleetPlacement.place(fleet, FleetPlacement.request(plan), scans);
            SharedWorkDirCheck.require(ranks.stream().map(RankPlacement::host).distinct().map(fleet::host).toList());
        } else {
            ranks = FleetPlacement.complete(fleet, id, FleetPlacement.request(plan), ranks, scans);
        }
        String workingDirectory = workload.workingDir().orElse("");
        boolean inContainer = fleet.containers(fleet.host(ranks.get(0).host())).runs(workload);
        List<JobDirectory> dirs = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            SshHost host = fleet.host(rank.host());
            // In a container the working directory is the image's, not the host's.
            if (!inContainer && !workingDirectory.isEmpty() && !host.isDirectory(workingDirectory)) {
                throw GantryException.invalid(ErrorCode.SPEC_INVALID, List.of(Problem.of("workingDir",
                        "'" + workingDirectory + "' is not a directory on " + host.name()
                                + "; create it there or set workingDir to an existing directory")));
            }
            dirs.add(SshFleet.directory(host, id));
        }
        // Secrets are resolved only now and travel only in the env file the loader deletes.
        Map<String, String> environment = JobVariables.workload(workload, context.secrets());
        String master = fleet.host(ranks.get(0).host()).target().host();
        List<Map<String, String>> rankEnvironments = new ArrayList<>();
        List<EnvFile> envFiles = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            Map<String, String> env = new TreeMap<>(JobVariables.rank(environment, id, plan, options,
                    new JobEnvironment.Rendezvous(rank.rank(), master, inventory.masterPort())));
            SshHost host = fleet.host(rank.host());
            env.putAll(MultiHostJob.gpuVisibility(rank.gpus(), host.facts().nvidiaGpus() > 0));
            rankEnvironments.add(env);
            if (inContainer) {
                // Before anything is written: a value the container's env file cannot carry is refused here.
                envFiles.add(fleet.containers(host).envFile(workload, containerEnvironment(env, plan)));
            }
        }
        for (int k = 0; k < ranks.size(); k++) {
            prepare(dirs.get(k), ranks.get(k), workload, workingDirectory, options.idempotencyKey());
            stages.reached("prepared", k);
        }
        for (int k = 0; k < ranks.size(); k++) {
            RankPlacement rank = ranks.get(k);
            SshHost host = fleet.host(rank.host());
            JobDirectory dir = dirs.get(k);
            Map<String, String> env = rankEnvironments.get(k);
            Supplier<Launch> launch = inContainer ? container(host, dir, plan, id, rank, envFiles.get(k))
                    : () -> new Launch(workload.command(), workingDirectory, env, false);
            launch(host, dir, launch);
            stages.reached("launched", k);
        }
        for (int k = 0; k < ranks.size(); k++) {
            awaitPid(fleet.host(ranks.get(k).host()), dirs.get(k));
        }
        return ref;
    }

    @Override
    public JobStatus status(JobRef ref) {
        JobStatus status = statuses(List.of(ref)).get(ref);
        if (status.state() == JobState.UNKNOWN) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, status.message());
        }
        return status;
    }

    /**
     * One scan per host answers for every job; ranks of a job that broke (a rank failed, was evicted or its host
     * vanished) while others still run are stopped here, so a broken distributed job does not hold its hosts.
     */
    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<String, SshFleet.Scan> scans = fleet.scanAll();
        if (scans.values().stream().anyMatch(scan -> scan.preemption().isPresent()) && evict(scans)) {
            scans = fleet.scanAll(); // the evicted jobs' markers, as every later process will read them
        }
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : jobs) {
            Optional<List<MultiHostJob.Rank>> ranks = isOurs(ref) ? JobRanks.statuses(fleet, ref.id(), scans)
                    : Optional.empty();
            if (ranks.isEmpty()) {
                result.put(ref, JobStatus.of(JobState.UNKNOWN, JobRanks.notFound(ref, scans)));
                continue;
            }
            List<MultiHostJob.Rank> stop = MultiHostJob.toStop(ranks.get());
            if (!stop.isEmpty()) {
                JobStatus cause = MultiHostJob.aggregate(ranks.get());
                fleet.parallel(stop, r -> RankStop.stop(fleet, ref.id(), r, JobDirectory.CANCELLED,
                        "stopped: " + cause.message(), settings.cancelGrace(), context));
            }
            result.put(ref, withEventProblems(MultiHostJob.aggregate(ranks.get()), ranks.get(), scans));
        }
        return result;
    }

    /**
     * A Preempt event in a host's Scheduled Events takes the VM and every job on it: each running rank there is
     * evicted, polled or not (SIGTERM so it can checkpoint, PREEMPTED with the event in its message), all at once so
     * that one's grace period does not eat into the next one's; their other ranks are stopped as for any broken
     * job. The event is acknowledged afterwards when the settings say so. Returns whether any rank was evicted
     * (an event stays listed until the VM goes, and later polls find nothing left to stop).
     */
    private boolean evict(Map<String, SshFleet.Scan> scans) {
        List<Runnable> stops = new ArrayList<>();
        Map<SshHost, ScheduledEvent> events = new LinkedHashMap<>();
        scans.forEach((name, scan) -> scan.preemption().ifPresent(event -> {
            SshHost host = fleet.host(name);
            events.put(host, event);
            scan.entries().forEach((id, entry) -> {
                if (StatusMapping.map(entry.snapshot(), true).state() == JobState.RUNNING) {
                    int rank = entry.placement().map(RankPlacement::rank).orElse(0);
                    stops.add(() -> RankStop.stop(fleet, id, new MultiHostJob.Rank(rank, name,
                            JobStatus.of(JobState.RUNNING, "")), JobDirectory.PREEMPTED, event.describe(),
                            settings.cancelGrace(), context));
                }
            });
        }));
        fleet.parallel(stops, Runnable::run);
        events.forEach((host, event) -> fleet.watch(host).acknowledge(event).ifPresent(problem ->
                context.logger().log(System.Logger.Level.WARNING, host.name() + ": " + problem)));
        return !stops.isEmpty();
    }

    /** A running job on a host whose Scheduled Events could not be read says so beside its status. */
    private static JobStatus withEventProblems(JobStatus status, List<MultiHostJob.Rank> ranks,
                                               Map<String, SshFleet.Scan> scans) {
        if (status.state() != JobState.RUNNING) {
            return status;
        }
        List<String> problems = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            SshFleet.Scan scan = scans.get(rank.host());
            if (scan != null) {
                scan.events().flatMap(EvictionWatch.Check::problem).filter(p -> !problems.contains(p))
                        .ifPresent(problems::add);
            }
        }
        return problems.isEmpty() ? status : new JobStatus(status.state(), status.exitCode(), status.message()
                + " (" + String.join("; ", problems) + ")", status.startedAt(), status.endedAt());
    }

    /** Each rank's stdout and stderr; a line's {@code node} is its rank. Ranks are followed side by side. */
    @Override
    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        try {
            follow(ref, options, sink);
        } catch (RuntimeException e) {
            // An interrupt that cut a remote command or a wait for the hosts short is the interrupt, wherever it hit.
            if (Thread.interrupted()) {
                InterruptedException interrupted = new InterruptedException("reading the logs was interrupted");
                interrupted.initCause(e);
                throw interrupted;
            }
            throw e;
        }
    }

    private void follow(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        List<MultiHostJob.Rank> ranks = existing(ref);
        LogSink shared = line -> {
            synchronized (sink) {
                sink.accept(line);
            }
        };
        List<Callable<Void>> readers = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            SshHost host = fleet.host(rank.host());
            JobDirectory job = SshFleet.directory(host, ref.id());
            readers.add(() -> {
                new JobLogs(host, job, () -> status(ref).state().isTerminal(), LOG_POLL).deliver(options,
                        line -> shared.accept(new LogLine(line.stream(), rank.rank(), line.text())));
                return null;
            });
        }
        if (readers.size() == 1 || !options.follow()) {
            for (Callable<Void> reader : readers) {
                call(reader);
            }
            return;
        }
        List<Future<Void>> running = new ArrayList<>();
        for (Callable<Void> reader : readers) {
            running.add(fleet.submit(reader));
        }
        try {
            for (Future<Void> future : running) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof InterruptedException i) {
                        throw i;
                    }
                    SshFleet.unwrap(future);
                }
            }
        } finally {
            running.forEach(f -> f.cancel(true));
        }
    }

    @Override
    public void cancel(JobRef ref) {
        fleet.parallel(existing(ref), r -> RankStop.stop(fleet, ref.id(), r, JobDirectory.CANCELLED,
                "cancelled on request", settings.cancelGrace(), context));
    }

    /**
     * Evicts a job on every host the way a Spot eviction notice would (SIGTERM, SIGKILL after the grace period); it
     * then reports PREEMPTED. Tests call it; on Azure VMs Scheduled Events drive it.
     */
    public void preempt(JobRef ref, String reason) {
        fleet.parallel(existing(ref), r -> RankStop.stop(fleet, ref.id(), r, JobDirectory.PREEMPTED, reason,
                settings.cancelGrace(), context));
    }

    /** One probe per host (one remote command each); a host that cannot be reached says so in its report. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        List<HostReport> reports = new ArrayList<>();
        for (SshHost host : fleet.hosts()) {
            try {
                reports.add(HostDoctor.examine(host, host.workDir(), plan,
                        settings.container().runtime().configName()));
            } catch (GantryException e) {
                reports.add(new HostReport(host.name(), Map.of("address", host.target().address()),
                        List.of(unreachable(e))));
            }
        }
        return reports;
    }

    /**
     * Why the probe could not run, as a check whose name says which part of the SSH login failed: a host key that
     * is not the trusted one ({@code ssh.hostKey}) is not cured by retrying, a refused login ({@code ssh.login}) or
     * an unreachable host ({@code ssh.reachable}) may be, on a host still booting.
     */
    private static HostCheck unreachable(GantryException e) {
        return switch (e.code()) {
            case HOST_KEY_REJECTED -> new HostCheck(ProvisionedVmDoctor.HOST_KEY_CHECK, HostCheck.Status.MISSING, e.getMessage(),
                    "the host key that is trusted for this host", "find out why the key differs (a reinstalled "
                    + "host, or someone in between) before trusting another; see docs/ssh.md");
            case AUTH_FAILED -> new HostCheck("ssh.login", HostCheck.Status.MISSING, e.getMessage(),
                    "an SSH login that works", "check the user and the identity file or agent; see docs/ssh.md");
            default -> new HostCheck("ssh.reachable", HostCheck.Status.MISSING, e.getMessage(),
                    "an SSH login that works", "check the address, user, key and host key; see docs/ssh.md");
        };
    }

    @Override
    public void close() {
        fleet.close(); // jobs outlive this object; only the connections end
    }

    // ---- placement and submit

    private void prepare(JobDirectory job, RankPlacement rank, Workload workload, String workingDirectory,
                         String key) {
        SshHost host = fleet.host(rank.host());
        if (!job.create() && host.exists(job.file(RankPlacement.FILE))) {
            return; // prepared by an earlier attempt: records and placement stay as first written
        }
        job.writeRecord(new JobRecord(workload.name(), workload.command(), JobVariables.names(workload),
                workingDirectory, context.clock().instant(), key));
        host.writeAtomically(job.file(RankPlacement.FILE), rank.line());
    }

    /**
     * What one rank's wrapper runs: the workload's argv in its working directory, or the container runtime's
     * command line in the rank's job directory.
     *
     * @param environment the launched process's own environment (for a container: the runtime client's)
     * @param envFile whether a container env file was written that a failed launch must remove
     */
    private record Launch(List<String> command, String directory, Map<String, String> environment,
                          boolean envFile) {
    }

    /**
     * One rank's container launch: writes the container's env file (0600) and returns the runtime's command line.
     * Run under the rank's lock once it is known not to be launched yet, so a retried or concurrent submit never
     * writes the job's secrets to disk again.
     */
    private Supplier<Launch> container(SshHost host, JobDirectory job, Plan plan, String id, RankPlacement rank,
                                       EnvFile envFile) {
        return () -> {
            ContainerLaunch.Launch launch = fleet.containers(host).prepare(plan, id, rank.rank(), job, envFile,
                    new GpuSlice(rank.gpus(), host.facts().nvidiaGpus()));
            return new Launch(launch.argv(), job.path(), launch.runtimeEnvironment(), true);
        };
    }

    /**
     * A rank's environment as its container sees it. NVIDIA devices are handed in by the runtime, which numbers the
     * rank's GPUs from 0 in the container: the host's indexes in CUDA_VISIBLE_DEVICES would hide them. AMD devices
     * are all passed and keep the host's numbering, so the variable stays and selects the rank's share.
     */
    private static Map<String, String> containerEnvironment(Map<String, String> rankEnvironment, Plan plan) {
        Map<String, String> env = new TreeMap<>(rankEnvironment);
        boolean amd = plan.vmSize().gpu().map(g -> g.vendor() == GpuVendor.AMD).orElse(false);
        if (!amd) {
            env.remove(MultiHostJob.GPU_VARIABLE);
        }
        return env;
    }

    /** Starts one rank under its lock, unless it was launched or ended already; what to start is made only then. */
    @SuppressWarnings("try")
    private void launch(SshHost host, JobDirectory job, Supplier<Launch> start) {
        try (AutoCloseable lock = host.lock(job.file(JobDirectory.LOCK))) {
            // One look at the files that say the job was launched or has ended, instead of one command each.
            if (!host.present(job.path(), List.of(JobDirectory.LAUNCHED, JobDirectory.PID, JobDirectory.EXIT,
                    JobDirectory.CANCELLED, JobDirectory.PREEMPTED)).isEmpty()) {
                return; // launched by an earlier or concurrent submit, or cancelled before it started
            }
            Launch launch = start.get();
            try {
                host.startDetached(JobWrapper.launchArgv(host.sessionLeader(), job.path(), launch.command()),
                        launch.directory(), launch.environment(), job.file(JobDirectory.LAUNCH_LOG));
            } catch (GantryException e) {
                if (launch.envFile()) {
                    host.delete(job.file(ContainerLaunch.ENV_FILE)); // it holds the job's secrets
                }
                throw e;
            }
            job.markLaunched(context.clock().instant());
        } catch (GantryException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, "submitting " + job.path() + " on " + host.name()
                    + " failed: " + e.getMessage(), e);
        }
    }

    private void awaitPid(SshHost host, JobDirectory job) {
        long deadline = System.nanoTime() + LAUNCH_WAIT.toNanos();
        try {
            while (!host.exists(job.file(JobDirectory.PID)) && System.nanoTime() < deadline) {
                Thread.sleep(POLL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!host.exists(job.file(JobDirectory.PID))) {
            String log = host.readText(job.file(JobDirectory.LAUNCH_LOG)).orElse("").strip();
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "job " + job.path() + " on " + host.name()
                    + " did not start within " + LAUNCH_WAIT.toSeconds() + "s" + (log.isEmpty() ? "" : ": " + log)
                    + "; status will say whether it started later");
        }
    }



    private List<MultiHostJob.Rank> existing(JobRef ref) {
        Map<String, SshFleet.Scan> scans = fleet.scanAll();
        Optional<List<MultiHostJob.Rank>> ranks = isOurs(ref) ? JobRanks.statuses(fleet, ref.id(), scans)
                    : Optional.empty();
        if (ranks.isEmpty()) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, JobRanks.notFound(ref, scans));
        }
        return ranks.get();
    }

    // ---- small things

    private static boolean isOurs(JobRef ref) {
        return ref.backend().equals(ManualBackend.NAME) && JOB_ID.matcher(ref.id()).matches();
    }

    /** Runs a reader; what a remote command cut short by an interrupt throws is turned into the interrupt above. */
    private static void call(Callable<Void> reader) throws InterruptedException {
        try {
            reader.call();
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, e.getMessage(), e);
        }
    }
}
