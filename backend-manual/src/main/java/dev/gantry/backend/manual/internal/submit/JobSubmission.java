package dev.gantry.backend.manual.internal.submit;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.backend.manual.internal.placement.FleetCheck;
import dev.gantry.backend.manual.internal.placement.FleetPlacement;
import dev.gantry.backend.manual.internal.placement.SharedWorkDirCheck;
import dev.gantry.backend.manual.internal.settings.Inventory;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.backend.manual.internal.status.JobRanks;
import dev.gantry.backend.manual.internal.status.MultiHostJob;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.backend.manual.internal.transport.Fleets;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.container.EnvFile;
import dev.gantry.hosts.container.GpuSlice;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.JobLaunch;
import dev.gantry.hosts.jobs.JobLauncher;
import dev.gantry.hosts.jobs.JobRecord;
import dev.gantry.hosts.jobs.JobVariables;
import dev.gantry.hosts.jobs.RankPlacement;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Submits a job to the fleet: one scan of every host (which also finds a retried submit's job and, on several
 * hosts, takes the job's claim), placement, then for each rank one launch command that prepares its directory and
 * starts it ({@link JobLauncher}). A warm single-node submit is one command per host plus one: two to an SSH host
 * alone, three to two hosts. On this machine alone it is the launch alone, which finds a job launched before
 * by itself.
 */
public final class JobSubmission {
    /** Points of a submit that tests stop at to simulate the submitting process dying there. */
    public interface Stages {
        Stages NONE = (stage, rank) -> { };

        /** Called at {@code prepared} (a rank's directory and records written) and {@code launched}. */
        void reached(String stage, int rank);
    }

    private static final Duration START_WAIT = Duration.ofSeconds(10);
    /** A claim goes stale after a minute ({@link dev.gantry.hosts.jobs.HostScan}); wait a little longer. */
    private static final Duration CLAIM_WAIT = Duration.ofSeconds(75);
    private static final Duration CLAIM_POLL = Duration.ofMillis(200);

    private final Fleet fleet;
    private final ManualSettings settings;
    private final BackendContext context;
    private final FleetCheck check;
    private volatile Stages stages = Stages.NONE;

    public JobSubmission(Fleet fleet, ManualSettings settings, BackendContext context, FleetCheck check) {
        this.fleet = fleet;
        this.settings = settings;
        this.context = context;
        this.check = check;
    }

    public void stages(Stages value) {
        this.stages = value;
    }

    /**
     * Submits after one scan of every host. A fleet of one needs no claim: the launch lock in the job's directory
     * already makes concurrent submits of one key start one job. On several hosts the first host's scan also claims
     * the job (an atomic mkdir, in the same command), so that concurrent submits from several processes agree on
     * one placement: the one that did not get the claim scans again until the other's ranks have recorded where
     * they are. The claim is write-once: a later submit of the key finds the placement and never looks at it.
     */
    public JobRef submit(Plan plan, SubmitOptions options) {
        String id = ManualBackend.ID_PREFIX + options.idempotencyKey();
        if (fleet.sharesCapacity()) {
            // This machine alone: no load to place by, and the launch itself finds a job launched before.
            return submitPlaced(plan, options, id, Map.of());
        }
        Optional<String> claim = fleet.size() == 1 ? Optional.empty() : Optional.of(id);
        long deadline = System.nanoTime() + CLAIM_WAIT.toNanos();
        while (true) {
            Map<String, FleetHost.Scan> scans = fleet.scanForSubmit(id, claim);
            FleetHost.Scan coordinator = scans.get(fleet.first().name());
            boolean placed = JobRanks.placed(id, scans, true).isPresent();
            if (claim.isEmpty() || placed || coordinator.claimed().orElse(false)) {
                return submitScanned(plan, options, id, scans, claim.filter(c -> !placed));
            }
            if (coordinator.error().isPresent()) {
                // The first host is down: submit without the claim rather than not at all; each rank's launch lock
                // and the wrapper's own claim still keep any rank from running twice on one host.
                context.logger().log(System.Logger.Level.WARNING, "submitting " + id + " without the claim on "
                        + fleet.first().name() + ": " + coordinator.error().get());
                return submitScanned(plan, options, id, scans, Optional.empty());
            }
            if (System.nanoTime() > deadline) {
                throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "another submit of " + id + " holds its "
                        + "claim on " + fleet.first().name() + " and has not placed the job within "
                        + CLAIM_WAIT.toSeconds() + "s; submit again with the same key once it has ended");
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(CLAIM_POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for another submit", e);
        }
    }

    /**
     * @param claim the claim this submit holds and has not yet honoured with a placement: given back when the submit
     *     fails before any rank recorded one, so that a corrected resubmit need not wait for it to go stale
     */
    private JobRef submitScanned(Plan plan, SubmitOptions options, String id, Map<String, FleetHost.Scan> scans,
                                 Optional<String> claim) {
        try {
            return submitPlaced(plan, options, id, scans);
        } catch (RuntimeException e) {
            claim.ifPresent(this::release);
            throw e;
        }
    }

    private void release(String claim) {
        FleetHost coordinator = fleet.first();
        try {
            coordinator.host().exec(List.of("rmdir", "--", coordinator.workDir() + "/.claims/" + claim),
                    Optional.empty(), Fleets.COMMAND_TIMEOUT);
        } catch (GantryException e) {
            // It goes stale in a minute; a resubmit waits at most that long.
        }
    }

    private JobRef submitPlaced(Plan plan, SubmitOptions options, String id, Map<String, FleetHost.Scan> scans) {
        JobRef ref = new JobRef(ManualBackend.NAME, id);
        // Only ranks that recorded their placement bind a retry; a bare directory is placed afresh.
        List<RankPlacement> ranks = JobRanks.placed(id, scans, true).orElse(List.of());
        if (!ranks.isEmpty() && JobRanks.allLaunched(id, ranks, scans)) {
            return ref; // a retry of a submit that launched every rank: the same job, nothing new started
        }
        if (ranks.isEmpty()) {
            List<Problem> problems = check.problems(plan);
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.PLAN_REJECTED, problems);
            }
            ranks = FleetPlacement.place(fleet, FleetPlacement.request(plan), scans);
            SharedWorkDirCheck.require(ranks.stream().map(RankPlacement::host).distinct().map(fleet::host).toList());
        } else {
            ranks = FleetPlacement.complete(fleet, id, FleetPlacement.request(plan), ranks, scans);
        }
        Workload workload = plan.workload();
        FleetHost master = fleet.host(ranks.get(0).host());
        boolean inContainer = master.containers().runs(workload);
        if (!master.remote()) {
            checkEncodable(workload);
        }
        // Secrets are resolved only now and travel only on the launch's stdin, into files the job deletes.
        Map<String, String> environment = JobVariables.workload(workload, context.secrets());
        int masterPort = settings.inventory().map(Inventory::masterPort)
                .orElse(JobEnvironment.DEFAULT_MASTER_PORT);
        List<Rank> prepared = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            FleetHost host = fleet.host(rank.host());
            Map<String, String> env = new TreeMap<>(JobVariables.rank(environment, id, plan, options,
                    new JobEnvironment.Rendezvous(rank.rank(), master.address(), masterPort)));
            env.putAll(MultiHostJob.gpuVisibility(rank.gpus(), host.host().facts().nvidiaGpus() > 0));
            // Before anything is written: a value the container's env file cannot carry is refused here.
            Optional<EnvFile> envFile = inContainer
                    ? Optional.of(host.containers().envFile(workload, containerEnvironment(env, plan)))
                    : Optional.empty();
            String workingDirectory = workload.workingDir().or(host::defaultWorkingDirectory).orElse("");
            prepared.add(new Rank(rank, host, host.directory(id), env, envFile, workingDirectory));
        }
        if (prepared.size() > 1 || inContainer) {
            // Every rank records its placement before any starts, so a retry after a crash finds them all; a
            // container's launch also needs the directory before it starts (its name is recorded there).
            for (Rank rank : prepared) {
                launch(rank, recordOf(workload, rank, options), Optional.empty());
                stages.reached("prepared", rank.placement().rank());
            }
        }
        for (Rank rank : prepared) {
            launch(rank, recordOf(workload, rank, options), Optional.of(start(plan, id, rank, inContainer)));
            stages.reached("launched", rank.placement().rank());
        }
        return ref;
    }

    /** One rank as the submit prepared it. */
    private record Rank(RankPlacement placement, FleetHost host, JobDirectory directory,
                        Map<String, String> environment, Optional<EnvFile> envFile, String workingDirectory) {
    }

    private JobRecord recordOf(Workload workload, Rank rank, SubmitOptions options) {
        return new JobRecord(workload.name(), workload.command(), JobVariables.names(workload),
                rank.workingDirectory(), context.clock().instant(), options.idempotencyKey());
    }

    /**
     * What the rank's wrapper runs: the workload's argv in its working directory, or the container runtime's
     * command line in the rank's job directory, with the container's env file written by the launch itself.
     */
    private JobLaunch.Start start(Plan plan, String id, Rank rank, boolean inContainer) {
        if (inContainer) {
            ContainerLaunch.Launch launch = rank.host().containers().prepare(plan, id, rank.placement().rank(),
                    rank.directory(), rank.envFile().orElseThrow(),
                    new GpuSlice(rank.placement().gpus(), rank.host().host().facts().nvidiaGpus()));
            return new JobLaunch.Start(launch.argv(), rank.directory().path(), Optional.empty(),
                    launch.runtimeEnvironment(), Optional.of(launch.envFile()), context.clock().instant(), START_WAIT);
        }
        // In a container the working directory is the image's, not the host's: only here must it exist.
        Optional<String> required = Optional.of(rank.workingDirectory()).filter(d -> !d.isEmpty());
        return new JobLaunch.Start(StartChecks.command(plan), rank.workingDirectory(), required,
                rank.environment(), Optional.empty(), context.clock().instant(), START_WAIT);
    }

    private void launch(Rank rank, JobRecord record, Optional<JobLaunch.Start> start) {
        JobLaunch launch = new JobLaunch(rank.directory().path(), record, Optional.of(rank.placement().line()),
                start);
        if (JobLauncher.launch(rank.host().host(), launch) == JobLauncher.Outcome.MISSING_DIRECTORY) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, List.of(Problem.of("workingDir",
                    "'" + rank.workingDirectory() + "' is not a directory on " + rank.host().name()
                            + "; create it" + (rank.host().remote() ? " there" : "")
                            + " or set workingDir to an existing directory")));
        }
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

    /**
     * The JDK passes argv in the platform's encoding: under a non-UTF-8 locale characters it cannot encode would
     * silently turn into '?' on this machine, so refuse them instead.
     */
    private static void checkEncodable(Workload workload) {
        Charset charset = Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
        CharsetEncoder encoder = charset.newEncoder();
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < workload.command().size(); i++) {
            if (!encoder.canEncode(workload.command().get(i))) {
                problems.add(Problem.of("command[" + i + "]", "contains characters the " + charset
                        + " encoding of this Java process cannot pass on; run Gantry with LANG=C.UTF-8"));
            }
        }
        workload.env().forEach((name, value) -> {
            if (!encoder.canEncode(value)) {
                problems.add(Problem.of("env." + name, "contains characters the " + charset
                        + " encoding of this Java process cannot pass on; run Gantry with LANG=C.UTF-8"));
            }
        });
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, problems);
        }
    }
}
