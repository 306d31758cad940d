package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.ssh.SshPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
    private final Map<String, SshHost> hosts = new LinkedHashMap<>();
    private final SshPool pool;
    private final ManualSettings settings;
    private final BackendContext context;
    private final Capabilities capabilities;
    private final ExecutorService fanOut;
    private volatile SubmitStages stages = SubmitStages.NONE;

    SshBackend(Inventory inventory, SshPool pool, ManualSettings settings, BackendContext context,
               Capabilities capabilities) {
        this.inventory = inventory;
        this.pool = pool;
        this.settings = settings;
        this.context = context;
        this.capabilities = capabilities;
        for (Inventory.InventoryHost entry : inventory.hosts()) {
            hosts.put(entry.name(), new SshHost(entry, pool, COMMAND_TIMEOUT));
        }
        this.fanOut = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "gantry-manual-ssh");
            t.setDaemon(true);
            return t;
        });
    }

    /** Binds the inventory from the configuration; warns loudly about every host whose key is not verified. */
    public static SshBackend create(BackendConfig config, ManualSettings settings, BackendContext context,
                                    Capabilities capabilities) {
        Inventory inventory = Inventory.bind(config, config.get(ManualSettings.WORK_DIR).map(String::strip));
        for (String host : inventory.insecureHosts()) {
            context.logger().log(System.Logger.Level.WARNING, "backends.manual: " + Inventory.INSECURE
                    + " is set for host " + host + ": its identity is NOT verified and a man in the middle would go "
                    + "unnoticed; pin its key with hostKeyFingerprint or knownHosts");
        }
        return new SshBackend(inventory, new SshPool(), settings, context, capabilities);
    }

    void stages(SubmitStages value) {
        this.stages = value;
    }

    /** The hosts, by name, for tests and the benchmark (they count the remote commands each host ran). */
    Map<String, SshHost> hosts() {
        return hosts;
    }

    /** Remote commands run so far on all hosts together; the benchmark reports it per status poll. */
    public long remoteCommands() {
        return hosts.values().stream().mapToLong(SshHost::commands).sum();
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
        Placement.Request request = request(plan);
        if (request.nodes() > hosts.size()) {
            problems.add(Problem.of("resources.nodes", "the plan asks for " + request.nodes() + " nodes but the "
                    + "inventory has " + hosts.size() + " host(s); add hosts or lower nodes"));
        }
        plan.workload().container().ifPresent(container -> problems.add(Problem.of("container.image",
                "the ssh transport runs the command directly and cannot run the image '" + container.image()
                        + "'; remove container, or run the image yourself in the command")));
        if (problems.isEmpty()) {
            List<Placement.HostLoad> empty = new ArrayList<>();
            for (SshHost host : hosts.values()) {
                empty.add(capacity(host, Set.of(), 0, 0));
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

    @Override
    @SuppressWarnings("try") // the lock is held for the whole block, never read
    public JobRef submit(Plan plan, SubmitOptions options) {
        String id = ManualBackend.ID_PREFIX + options.idempotencyKey();
        JobRef ref = new JobRef(ManualBackend.NAME, id);
        Map<String, Scan> scans = scanAll();
        // Only ranks that recorded their placement bind a retry; a bare directory is placed afresh.
        List<RankPlacement> ranks = existingRanks(id, scans, true).orElse(List.of());
        Workload workload = plan.workload();
        if (!ranks.isEmpty() && allLaunched(id, ranks, scans)) {
            return ref; // a retry of a submit that launched every rank: the same job, nothing new started
        }
        if (ranks.isEmpty()) {
            List<Problem> problems = validate(plan);
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.PLAN_REJECTED, problems);
            }
            ranks = place(request(plan), scans);
        } else {
            ranks = completeRanks(id, request(plan), ranks, scans);
        }
        String workingDirectory = workload.workingDir().orElse("");
        List<JobDirectory> dirs = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            SshHost host = host(rank.host());
            if (!workingDirectory.isEmpty() && !host.isDirectory(workingDirectory)) {
                throw GantryException.invalid(ErrorCode.SPEC_INVALID, List.of(Problem.of("workingDir",
                        "'" + workingDirectory + "' is not a directory on " + host.name()
                                + "; create it there or set workingDir to an existing directory")));
            }
            dirs.add(directory(host, id));
        }
        // Secrets are resolved only now and travel only in the env file the loader deletes.
        Map<String, String> environment = environment(workload, id);
        String master = host(ranks.get(0).host()).entry().target().host();
        for (int k = 0; k < ranks.size(); k++) {
            prepare(dirs.get(k), ranks.get(k), workload, workingDirectory, options.idempotencyKey());
            stages.reached("prepared", k);
        }
        for (int k = 0; k < ranks.size(); k++) {
            RankPlacement rank = ranks.get(k);
            SshHost host = host(rank.host());
            Map<String, String> env = new TreeMap<>(environment);
            env.putAll(MultiHostJob.environment(k, ranks.size(), master, inventory.masterPort(), rank.gpus(),
                    host.facts().nvidiaGpus() > 0));
            launch(host, dirs.get(k), workload, workingDirectory, env);
            stages.reached("launched", k);
        }
        for (int k = 0; k < ranks.size(); k++) {
            awaitPid(host(ranks.get(k).host()), dirs.get(k));
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
        Map<String, Scan> scans = scanAll();
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : jobs) {
            Optional<List<MultiHostJob.Rank>> ranks = isOurs(ref) ? ranks(ref.id(), scans) : Optional.empty();
            if (ranks.isEmpty()) {
                result.put(ref, JobStatus.of(JobState.UNKNOWN, notFound(ref, scans)));
                continue;
            }
            List<MultiHostJob.Rank> stop = MultiHostJob.toStop(ranks.get());
            if (!stop.isEmpty()) {
                JobStatus cause = MultiHostJob.aggregate(ranks.get());
                parallel(stop, r -> stopRank(ref.id(), r, JobDirectory.CANCELLED, "stopped: " + cause.message()));
            }
            result.put(ref, MultiHostJob.aggregate(ranks.get()));
        }
        return result;
    }

    /** Each rank's stdout and stderr; a line's {@code node} is its rank. Ranks are followed side by side. */
    @Override
    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        List<MultiHostJob.Rank> ranks = existing(ref);
        LogSink shared = line -> {
            synchronized (sink) {
                sink.accept(line);
            }
        };
        List<Callable<Void>> readers = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            SshHost host = host(rank.host());
            JobDirectory job = directory(host, ref.id());
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
            running.add(fanOut.submit(reader));
        }
        try {
            for (Future<Void> future : running) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof InterruptedException i) {
                        throw i;
                    }
                    unwrap(future);
                }
            }
        } finally {
            running.forEach(f -> f.cancel(true));
        }
    }

    @Override
    public void cancel(JobRef ref) {
        parallel(existing(ref), r -> stopRank(ref.id(), r, JobDirectory.CANCELLED, "cancelled on request"));
    }

    /**
     * Evicts a job on every host the way a Spot eviction notice would (SIGTERM, SIGKILL after the grace period); it
     * then reports PREEMPTED. Tests call it; on Azure VMs Scheduled Events drive it.
     */
    public void preempt(JobRef ref, String reason) {
        parallel(existing(ref), r -> stopRank(ref.id(), r, JobDirectory.PREEMPTED, reason));
    }

    /** One probe per host (one remote command each); a host that cannot be reached says so in its report. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        List<HostReport> reports = new ArrayList<>();
        for (SshHost host : hosts.values()) {
            try {
                reports.add(HostDoctor.examine(host, host.entry().workDir(), plan, "none"));
            } catch (GantryException e) {
                reports.add(new HostReport(host.name(), Map.of("address", host.entry().target().address()),
                        List.of(new HostCheck("ssh.reachable", HostCheck.Status.MISSING, e.getMessage(),
                                "an SSH login that works", "check the address, user, key and host key; "
                                + "see docs/ssh.md"))));
            }
        }
        return reports;
    }

    @Override
    public void close() {
        // Jobs outlive this object; only the connections end.
        fanOut.shutdownNow();
        pool.close();
    }

    // ---- placement and submit

    private Placement.Request request(Plan plan) {
        var resources = plan.workload().resources();
        return new Placement.Request(plan.nodes(), resources.gpus().orElse(plan.gpusPerNode()),
                resources.vcpus().orElse(plan.vmSize().vcpus()),
                resources.memoryGib().orElse(plan.vmSize().memoryGib()));
    }

    private List<RankPlacement> place(Placement.Request request, Map<String, Scan> scans) {
        List<Placement.HostLoad> loads = new ArrayList<>();
        for (SshHost host : hosts.values()) {
            loads.add(load(host, scans.get(host.name())));
        }
        List<Placement.Slot> slots = Placement.choose(request, loads);
        List<String> names = slots.stream().map(Placement.Slot::host).toList();
        List<RankPlacement> ranks = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            ranks.add(new RankPlacement(k, names, slots.get(k).gpus(), request.vcpus(), request.memoryGib()));
        }
        return ranks;
    }

    /**
     * A retried submit that stopped before every rank recorded its placement: the missing ranks keep the host the
     * first attempt chose for them and take free GPUs there now.
     */
    private List<RankPlacement> completeRanks(String id, Placement.Request request, List<RankPlacement> ranks,
                                              Map<String, Scan> scans) {
        List<RankPlacement> complete = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            Scan scan = scans.get(rank.host());
            HostScan.Entry entry = scan == null ? null : scan.entries().get(id);
            if (entry != null && entry.placement().isPresent()) {
                complete.add(rank);
                continue;
            }
            Placement.HostLoad load = load(host(rank.host()), scan == null ? new Scan(Map.of(), Optional.of(
                    "not in the inventory")) : scan);
            List<Placement.Slot> slot = Placement.choose(new Placement.Request(1, request.gpus(), request.vcpus(),
                    request.memoryGib()), List.of(load));
            complete.add(new RankPlacement(rank.rank(), rank.hosts(), slot.get(0).gpus(), request.vcpus(),
                    request.memoryGib()));
        }
        return complete;
    }

    /** A host's capacity less what the jobs there that have not ended hold, from their placement files. */
    private Placement.HostLoad load(SshHost host, Scan scan) {
        if (scan.error().isPresent()) {
            return Placement.HostLoad.unusable(host.name(), "unreachable (" + scan.error().get() + ")");
        }
        Set<Integer> gpus = new HashSet<>();
        int vcpus = 0;
        double memory = 0;
        for (HostScan.Entry entry : scan.entries().values()) {
            if (entry.placement().isPresent() && !StatusMapping.map(entry.snapshot()).state().isTerminal()) {
                gpus.addAll(entry.placement().get().gpus());
                vcpus += entry.placement().get().vcpus();
                memory += entry.placement().get().memoryGib();
            }
        }
        return capacity(host, gpus, vcpus, memory);
    }

    private Placement.HostLoad capacity(SshHost host, Set<Integer> gpus, int vcpus, double memory) {
        try {
            return new Placement.HostLoad(host.name(), host.facts(), gpus, vcpus, memory, Optional.empty());
        } catch (GantryException e) {
            return Placement.HostLoad.unusable(host.name(), "unreachable (" + e.getMessage() + ")");
        }
    }

    private void prepare(JobDirectory job, RankPlacement rank, Workload workload, String workingDirectory,
                         String key) {
        job.create();
        SshHost host = host(rank.host());
        if (host.exists(job.file(RankPlacement.FILE))) {
            return; // prepared by an earlier attempt: records and placement stay as first written
        }
        job.writeRecord(new JobRecord(workload.name(), workload.command(), envNames(workload), workingDirectory,
                context.clock().instant(), key));
        host.writeAtomically(job.file(RankPlacement.FILE), rank.line());
    }

    @SuppressWarnings("try")
    private void launch(SshHost host, JobDirectory job, Workload workload, String workingDirectory,
                        Map<String, String> env) {
        try (AutoCloseable lock = host.lock(job.file(JobDirectory.LOCK))) {
            if (job.launched() || job.ended()) {
                return; // launched by an earlier or concurrent submit, or cancelled before it started
            }
            host.startDetached(JobWrapper.launchArgv(host.sessionLeader(), job.path(), workload.command()),
                    workingDirectory, env, job.file(JobDirectory.LAUNCH_LOG));
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

    private boolean allLaunched(String id, List<RankPlacement> ranks, Map<String, Scan> scans) {
        for (RankPlacement rank : ranks) {
            Scan scan = scans.get(rank.host());
            HostScan.Entry entry = scan == null ? null : scan.entries().get(id);
            if (entry == null || !(entry.snapshot().launched() || entry.snapshot().cancelled()
                    || entry.snapshot().preempted().isPresent())) {
                return false;
            }
        }
        return true;
    }

    private Map<String, String> environment(Workload workload, String id) {
        Map<String, String> env = new TreeMap<>(workload.env());
        workload.secrets().forEach((name, ref) -> env.put(name, context.secrets().resolve(ref).reveal()));
        env.put("GANTRY_JOB_ID", id);
        workload.checkpoint().ifPresent(c -> env.put("GANTRY_CHECKPOINT_DIR", c.path()));
        return env;
    }

    private static List<String> envNames(Workload workload) {
        List<String> names = new ArrayList<>(workload.env().keySet());
        names.addAll(workload.secrets().keySet());
        return names;
    }

    // ---- reading the hosts

    /** One host's job directories, or why it could not be read. */
    record Scan(Map<String, HostScan.Entry> entries, Optional<String> error) {
    }

    /** Scans every host at once: one remote command per host. */
    Map<String, Scan> scanAll() {
        Map<String, Future<Scan>> futures = new LinkedHashMap<>();
        for (SshHost host : hosts.values()) {
            futures.put(host.name(), fanOut.submit(() -> {
                try {
                    return new Scan(HostScan.parse(host.scan(host.entry().workDir())), Optional.empty());
                } catch (GantryException e) {
                    return new Scan(Map.of(), Optional.of(e.getMessage()));
                }
            }));
        }
        Map<String, Scan> scans = new LinkedHashMap<>();
        futures.forEach((name, future) -> scans.put(name, unwrap(future)));
        return scans;
    }

    /** The placement the job's ranks recorded, from whichever of its directories a reachable host still has. */
    private Optional<List<RankPlacement>> existingRanks(String id, Map<String, Scan> scans, boolean placedOnly) {
        List<String> order = null;
        Map<Integer, RankPlacement> own = new TreeMap<>();
        for (Map.Entry<String, Scan> scan : scans.entrySet()) {
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

    /** Every rank's status; empty when no reachable host has the job. */
    private Optional<List<MultiHostJob.Rank>> ranks(String id, Map<String, Scan> scans) {
        Optional<List<RankPlacement>> placement = existingRanks(id, scans, false);
        if (placement.isEmpty()) {
            return Optional.empty();
        }
        List<MultiHostJob.Rank> ranks = new ArrayList<>();
        for (RankPlacement rank : placement.get()) {
            Scan scan = scans.get(rank.host());
            SshHost host = hosts.get(rank.host());
            JobStatus status;
            if (scan == null || host == null) {
                status = JobStatus.of(JobState.FAILED, "host " + rank.host() + " is no longer in the inventory");
            } else if (scan.error().isPresent()) {
                status = host.entry().spot()
                        ? JobStatus.of(JobState.PREEMPTED, "host vanished (Spot VM, evicted?): " + scan.error().get())
                        : JobStatus.of(JobState.FAILED, "host cannot be reached: " + scan.error().get());
            } else if (!scan.entries().containsKey(id)) {
                status = JobStatus.of(JobState.PENDING, "not created yet (the submit stopped first); submit again "
                        + "with the same idempotency key to start it");
            } else {
                status = StatusMapping.map(withProgram(host, id, scan.entries().get(id).snapshot()));
            }
            ranks.add(new MultiHostJob.Rank(rank.rank(), rank.host(), status));
        }
        return Optional.of(ranks);
    }

    /** The program name, read only for the exit codes whose message names it (126, 127): one more command. */
    private JobSnapshot withProgram(SshHost host, String id, JobSnapshot s) {
        OptionalInt code = s.exitCode();
        if (code.isEmpty() || code.getAsInt() != StatusMapping.COMMAND_NOT_FOUND
                && code.getAsInt() != StatusMapping.NOT_EXECUTABLE) {
            return s;
        }
        String program = directory(host, id).record().map(JobRecord::program).orElse("");
        return new JobSnapshot(program, s.launched(), s.pid(), s.alive(), s.exitCode(), s.cancelled(),
                s.preempted(), s.started(), s.ended());
    }

    private List<MultiHostJob.Rank> existing(JobRef ref) {
        Map<String, Scan> scans = scanAll();
        Optional<List<MultiHostJob.Rank>> ranks = isOurs(ref) ? ranks(ref.id(), scans) : Optional.empty();
        if (ranks.isEmpty()) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, notFound(ref, scans));
        }
        return ranks.get();
    }

    private String notFound(JobRef ref, Map<String, Scan> scans) {
        List<String> down = new ArrayList<>();
        scans.forEach((name, scan) -> scan.error().ifPresent(e -> down.add(name)));
        return "no job " + ref.id() + " on any host of the inventory"
                + (ref.backend().equals(ManualBackend.NAME) ? "" : " (the job belongs to backend '" + ref.backend()
                + "')") + (down.isEmpty() ? "" : "; unreachable: " + String.join(", ", down));
    }

    // ---- stopping

    /** Marker first, then SIGTERM to the group, SIGKILL after the grace period: as the local transport does. */
    private void stopRank(String id, MultiHostJob.Rank rank, String marker, String reason) {
        SshHost host = hosts.get(rank.host());
        if (host == null) {
            return;
        }
        try {
            JobDirectory job = directory(host, id);
            if (!job.mark(marker, context.clock().instant(), reason.replace('\n', ' ').replace('\t', ' '))) {
                return;
            }
            OptionalLong pgid = job.pgid();
            if (pgid.isEmpty()) {
                return;
            }
            long group = pgid.getAsLong();
            host.signalGroup(group, "TERM");
            long deadline = System.nanoTime() + settings.cancelGrace().toNanos();
            while (System.nanoTime() < deadline) {
                if (!host.groupAlive(group)) {
                    return;
                }
                Thread.sleep(POLL.toMillis() * 2);
            }
            host.signalGroup(group, "KILL");
        } catch (GantryException e) {
            // A host that cannot be reached cannot be stopped: its rank is reported as lost instead.
            context.logger().log(System.Logger.Level.WARNING, "could not stop rank " + rank.rank() + " on "
                    + rank.host() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface RankAction {
        void run(MultiHostJob.Rank rank);
    }

    private void parallel(List<MultiHostJob.Rank> ranks, RankAction action) {
        List<Future<?>> futures = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            futures.add(fanOut.submit(() -> action.run(rank)));
        }
        futures.forEach(SshBackend::unwrap);
    }

    // ---- small things

    private SshHost host(String name) {
        SshHost host = hosts.get(name);
        if (host == null) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "the job's host " + name
                    + " is no longer in the inventory; add it back to manage the job");
        }
        return host;
    }

    private static JobDirectory directory(SshHost host, String id) {
        return new JobDirectory(host, host.entry().workDir() + "/" + id);
    }

    private static boolean isOurs(JobRef ref) {
        return ref.backend().equals(ManualBackend.NAME) && JOB_ID.matcher(ref.id()).matches();
    }

    private static void call(Callable<Void> reader) throws InterruptedException {
        try {
            reader.call();
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, e.getMessage(), e);
        }
    }

    private static <T> T unwrap(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for the hosts", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new GantryException(ErrorCode.INTERNAL, String.valueOf(e.getCause()), e.getCause());
        }
    }
}
