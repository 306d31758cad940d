package org.example.gantry.podman.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Jobs as containers of the local podman. A job's id is its idempotency key; its container is named and labelled
 * from it, so a retried submit finds the container the first one made, and a later process (a new instance over the
 * same settings and state directory) finds every job by its label. The container runs on by itself (podman's
 * conmon watches it, not this process), and keeps its exit code until removed; its output goes to a file in the
 * state directory.
 */
public final class PodmanBackend implements Backend {
    /** One container per job on this machine: one node, CPU only, logs followed, evictions end the job. */
    public static final Capabilities CAPABILITIES = Capabilities.builder().containers(true).followLogs(true).build();
    private final String name;
    private final PodmanSettings settings;
    private final BackendContext context;
    private final JobRecords records;
    private final Podman podman;

    public PodmanBackend(BackendConfig config, PodmanSettings settings, BackendContext context) {
        this.name = config.backend();
        this.settings = settings;
        this.context = context;
        this.records = new JobRecords(context.stateDirectory());
        this.podman = new Podman(config);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public List<Problem> validate(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        if (plan.nodes() > 1) {
            problems.add(Problem.of("resources.nodes", "the podman backend runs a job as one container on this"
                    + " machine, got " + plan.nodes() + " nodes (allowed: 1); ask for one node or use a backend"
                    + " with several, such as manual with hosts or cyclecloud"));
        }
        int gpus = plan.workload().resources().gpus().orElse(plan.gpusPerNode());
        if (gpus > 0) {
            problems.add(Problem.of("resources.gpus", "the podman backend runs CPU jobs only, got " + gpus
                    + " GPU(s) per node (allowed: 0); run GPU jobs on another backend"));
        }
        plan.workload().env().forEach((variable, value) -> ContainerEnvironment.problem(variable, value)
                .ifPresent(problem -> problems.add(Problem.of("env." + variable, problem))));
        if (plan.workload().container().isEmpty() && settings.defaultImage().isEmpty()) {
            plan.workload().workingDir().filter(dir -> !Files.isDirectory(Path.of(dir))).ifPresent(dir ->
                    problems.add(Problem.of("workingDir", "'" + dir + "' is not a directory on this machine, where"
                            + " a job without an image runs over the host's files; create it or give another")));
        }
        return problems;
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        String key = options.idempotencyKey();
        JobRef job = new JobRef(name, key);
        if (records.read(key).startFailure().isPresent()) {
            return job; // a retried submit of a job whose container could not start
        }
        records.create(key);
        Map<String, String> environment = new LinkedHashMap<>(plan.workload().env());
        // Resolved here, at submit, and handed to podman in its environment only: never on disk or an argument.
        plan.workload().secrets().forEach((variable, ref) -> environment.put(variable,
                context.secrets().resolve(ref).reveal()));
        environment.putAll(JobEnvironment.of(key, plan, options, JobEnvironment.Rendezvous.singleNode()));
        ContainerEnvironment split = ContainerEnvironment.of(environment);
        boolean overHostRoot = plan.workload().container().isEmpty() && settings.defaultImage().isEmpty();
        Optional<String> hostWorkingDirectory = overHostRoot
                ? Optional.of(plan.workload().workingDir().orElse(System.getProperty("user.dir")))
                : Optional.empty();
        for (String directory : PodmanCommands.mounts(plan.workload(), overHostRoot, hostWorkingDirectory)) {
            createDirectory(directory);
        }
        Path envFile = split.envFile().isEmpty() ? null : envFile(split.envFile());
        try {
            Podman.Result result = podman.call(PodmanCommands.run(settings, plan, key, records.logFile(key), split,
                    Optional.ofNullable(envFile), hostWorkingDirectory), split.processEnvironment());
            if (!result.ok()) {
                startFailed(key, result);
            }
            return job;
        } finally {
            if (envFile != null) {
                deleteQuietly(envFile);
            }
        }
    }

    /**
     * After {@code podman run} failed: a container of the key's name already there is this job (a retried submit, or
     * a concurrent one that came first: podman's unique names make the submit idempotent without asking first); a
     * container that was made but could not start (its program missing) is a job that FAILED, saying why; no
     * container at all is podman failing, an error.
     */
    private void startFailed(String key, Podman.Result result) {
        if (result.stderr().contains("already in use")) {
            return;
        }
        if (exists(key)) {
            records.startFailed(key, new JobRecords.StartFailure(result.code(), result.error()));
            return;
        }
        throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "podman could not run the job " + key + ": "
                + result.error() + "; check the image, and that 'podman run' works here with the options in "
                + "backends." + name + ".podmanOptions and runOptions");
    }

    @Override
    public JobStatus status(JobRef job) {
        return statuses(List.of(job)).get(job);
    }

    /** One {@code podman ps} for all the jobs asked about, whatever their number. */
    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<String, Container> containers = new LinkedHashMap<>();
        for (Container container : Container.parseList(podman.require(PodmanCommands.list(settings),
                "list the jobs' containers").stdout())) {
            containers.put(container.key(), container);
        }
        Map<JobRef, JobStatus> statuses = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            if (!SubmitOptions.isValidKey(job.id())) {
                throw notFound(job); // not an id this backend gives, nor a path to read records from
            }
            Optional<Container> container = Optional.ofNullable(containers.get(job.id()));
            JobRecords.Record record = records.read(job.id());
            if (container.isEmpty() && record.startFailure().isEmpty()) {
                throw notFound(job);
            }
            statuses.put(job, StatusTable.of(container, record));
        }
        return statuses;
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException {
        if (!SubmitOptions.isValidKey(job.id()) || !records.exists(job.id())) {
            throw notFound(job);
        }
        new LogReader(records.logFile(job.id()), options).read(sink, () -> status(job).state().isTerminal());
    }

    @Override
    public void cancel(JobRef job) {
        JobStatus status = status(job);
        if (status.state().isTerminal()) {
            return; // cancelling an ended job keeps how it ended
        }
        records.cancelled(job.id(), context.clock().instant());
        stop(PodmanCommands.stop(settings, job.id()), job, "stop");
    }

    /**
     * Takes a running job's capacity away, as the conformance kit's eviction does (this machine has no Spot): the
     * eviction is recorded, then the container is killed; the job ends PREEMPTED with it counted.
     */
    public void evict(JobRef job, String reason) {
        records.evicted(job.id(), new Eviction(context.clock().instant(), reason));
        stop(PodmanCommands.kill(settings, job.id()), job, "kill");
    }

    private void stop(List<String> argv, JobRef job, String what) {
        Podman.Result result = podman.call(argv, Map.of());
        // A container that ended meanwhile cannot be stopped: podman says so, and the job is stopped anyway.
        if (!result.ok() && status(job).state() == JobState.RUNNING) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "podman could not " + what + " "
                    + PodmanCommands.containerName(job.id()) + ": " + result.error());
        }
    }

    /** The podman calls this instance made: one per status query of any number of jobs. */
    @Override
    public OptionalLong remoteCalls() {
        return OptionalLong.of(podman.calls());
    }

    /** Nothing to release: the containers run on by themselves, and a later instance finds them by label. */
    @Override
    public void close() {
    }

    private boolean exists(String key) {
        List<String> argv = new ArrayList<>(settings.prefix());
        argv.addAll(List.of("container", "exists", PodmanCommands.containerName(key)));
        return podman.call(argv, Map.of()).ok();
    }

    private GantryException notFound(JobRef job) {
        return new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id() + " on backend " + name
                + ": podman has no container " + PodmanCommands.containerName(job.id()) + " (removed with podman rm?)"
                + " and the state directory no record of it");
    }

    private static void createDirectory(String directory) {
        try {
            Files.createDirectories(Path.of(directory));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.PLAN_REJECTED, "cannot create " + directory + ", which the job"
                    + " mounts from this machine: " + e.getMessage() + "; create it or choose another path", e);
        }
    }

    /** A 0600 file outside the state directory, deleted as soon as podman has read it. */
    private static Path envFile(String text) {
        try {
            Path file = Files.createTempFile("gantry-podman-", ".env",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot write the job's env file in "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // The file is 0600 in the temporary directory; nothing else can be done about it here.
        }
    }
}
