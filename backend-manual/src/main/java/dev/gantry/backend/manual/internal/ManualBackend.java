package dev.gantry.backend.manual.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.HostDoctor;
import dev.gantry.hosts.container.ContainerLaunch;
import dev.gantry.hosts.container.EnvFile;
import dev.gantry.hosts.container.GpuSlice;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.SpotSettings;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.JobVariables;
import dev.gantry.hosts.jobs.JobRecord;
import dev.gantry.hosts.jobs.JobWrapper;
import dev.gantry.hosts.jobs.StatusPoll;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The manual backend: each job is a detached process group on a {@link Host} with its own directory, so a later
 * CLI invocation can inspect, tail and cancel it. The host is the local machine in this version. A workload with a
 * container image runs in Docker or Podman when a runtime is configured ({@link ContainerLaunch}).
 */
public final class ManualBackend implements Backend {
    public static final String NAME = "manual";
    /** Job ids are the idempotency key with a prefix, so no key ({@code .}, {@code ..}) can name a special file. */
    static final String ID_PREFIX = "job-";
    private static final Pattern JOB_ID = Pattern.compile(Pattern.quote(ID_PREFIX) + "[A-Za-z0-9._-]{1,128}");
    private static final Duration LAUNCH_WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(50);

    private final Host host;
    private final ManualSettings settings;
    private final BackendContext context;
    private final Capabilities capabilities;
    private final StatusPoll poll;
    private final ContainerLaunch containers;

    public ManualBackend(Host host, ManualSettings settings, BackendContext context, Capabilities capabilities) {
        this(host, settings, context, capabilities, SpotSettings.off());
    }

    /** A backend whose host may be an Azure Spot VM: status polls watch its Scheduled Events. */
    public ManualBackend(Host host, ManualSettings settings, BackendContext context, Capabilities capabilities,
                         SpotSettings spot) {
        this.host = host;
        this.settings = settings;
        this.context = context;
        this.capabilities = capabilities;
        this.poll = new StatusPoll(new EvictionWatch(host, spot), this::preempt, this::everyJob);
        this.containers = new ContainerLaunch(host, settings.container());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public List<Problem> validate(Plan plan) {
        List<Problem> problems = new ArrayList<>(PlanCheck.problems(plan, host.facts()));
        problems.addAll(containers.problems(plan));
        return problems;
    }

    @Override
    @SuppressWarnings("try") // the lock is held for the whole block, never read
    public JobRef submit(Plan plan, SubmitOptions options) {
        String id = ID_PREFIX + options.idempotencyKey();
        JobRef ref = new JobRef(NAME, id);
        JobDirectory job = directory(id);
        if (job.exists() && job.launched()) {
            return ref; // a retry of a submit that got as far as launching: the same job, nothing new started
        }
        List<Problem> problems = validate(plan);
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.PLAN_REJECTED, problems);
        }
        Workload workload = plan.workload();
        String workingDirectory = workload.workingDir().orElse(System.getProperty("user.dir"));
        boolean inContainer = containers.runs(workload);
        // In a container the working directory is the image's, not the host's.
        if (!inContainer && !host.isDirectory(workingDirectory)) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, List.of(Problem.of("workingDir",
                    "'" + workingDirectory + "' is not a directory on " + host.name()
                            + "; create it or set workingDir to an existing directory")));
        }
        checkEncodable(workload);
        // Secrets are resolved only now, before anything is written, and travel only in the child's environment.
        Map<String, String> environment = hostEnvironment();
        Map<String, String> jobEnvironment = JobVariables.rank(JobVariables.workload(workload, context.secrets()), id,
                plan, options, JobEnvironment.Rendezvous.singleNode());
        Optional<EnvFile> envFile = inContainer ? Optional.of(containers.envFile(workload, jobEnvironment))
                : Optional.empty();
        if (!job.create() && job.launched()) {
            return ref; // another submit with this key launched it meanwhile
        }
        try (AutoCloseable lock = host.lock(job.file(JobDirectory.LOCK))) {
            if (job.launched() || job.ended()) {
                // Launched by a concurrent submit while we waited for the lock, or cancelled before it started.
                return ref;
            }
            if (job.record().isEmpty()) {
                job.writeRecord(new JobRecord(workload.name(), workload.command(), JobVariables.names(workload),
                        workingDirectory, context.clock().instant(), options.idempotencyKey()));
            }
            List<String> command = workload.command();
            String launchDirectory = workingDirectory;
            if (envFile.isPresent()) {
                ContainerLaunch.Launch launch =
                        containers.prepare(plan, id, job, envFile.get(),
                        GpuSlice.first(FleetPlacement.request(plan).gpus(), host.facts().nvidiaGpus()));
                command = launch.argv();
                environment.putAll(launch.runtimeEnvironment());
                launchDirectory = job.path();
            } else {
                environment.putAll(jobEnvironment);
            }
            host.startDetached(JobWrapper.launchArgv(host.sessionLeader(), job.path(), command),
                    launchDirectory, environment, job.file(JobDirectory.LAUNCH_LOG));
            job.markLaunched(context.clock().instant());
            awaitPid(job);
        } catch (GantryException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, "submitting " + id + " failed: " + e.getMessage(), e);
        }
        return ref;
    }

    @Override
    public JobStatus status(JobRef ref) {
        return poll.statuses(Map.of(ref, existing(ref))).get(ref);
    }

    /** Reads every job's directory in one pass over the work directory; unknown jobs are UNKNOWN, as the SPI says. */
    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        List<String> present = host.list(settings.workDir().toString());
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        Map<JobRef, JobDirectory> known = new LinkedHashMap<>();
        for (JobRef ref : jobs) {
            if (!isOurs(ref) || !present.contains(ref.id())) {
                result.put(ref, JobStatus.of(JobState.UNKNOWN, "no job " + ref.id() + " in "
                        + settings.workDir()));
                continue;
            }
            result.put(ref, null); // keeps the caller's order; filled in below
            known.put(ref, directory(ref.id()));
        }
        // One poll for all known jobs: at most one Scheduled Events query for the host.
        result.putAll(poll.statuses(known));
        return result;
    }

    @Override
    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        JobDirectory job = existing(ref);
        new JobLogs(host, job, () -> poll.map(job).state().isTerminal(), POLL)
                .deliver(options, sink);
    }

    @Override
    public void cancel(JobRef ref) {
        stop(existing(ref), JobDirectory.CANCELLED, "cancelled on request");
    }

    /**
     * Evicts a running job: records the eviction, then stops the process group the way a Spot eviction notice
     * would (SIGTERM so the job can checkpoint, SIGKILL after the grace period). The job then reports PREEMPTED.
     * Status polls call it for Preempt events in the host's Azure Scheduled Events ({@link StatusPoll}).
     */
    public void preempt(JobRef ref, String reason) {
        stop(existing(ref), JobDirectory.PREEMPTED, reason);
    }

    /** One probe per host; the local transport has one host and runs no containers yet. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        return List.of(HostDoctor.examine(host, settings.workDir().toString(), plan,
                settings.container().runtime().configName()));
    }

    @Override
    public void close() {
        // Jobs are meant to outlive this object: nothing to stop.
    }

    private void stop(JobDirectory job, String marker, String reason) {
        if (!job.mark(marker, context.clock().instant(), reason)) {
            return; // already ended: its state stays as it was
        }
        try {
            GroupStop.stop(host, job, settings.cancelGrace());
        } finally {
            // The runtime's client was in the group, the container itself may not be (its monitor left it).
            containers.stopped(job);
        }
    }

    private void awaitPid(JobDirectory job) throws InterruptedException {
        long deadline = System.nanoTime() + LAUNCH_WAIT.toNanos();
        while (job.snapshot().pid().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (job.snapshot().pid().isEmpty()) {
            String log = host.readText(job.file(JobDirectory.LAUNCH_LOG)).orElse("").strip();
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "job " + job.path() + " did not start within "
                    + LAUNCH_WAIT.toSeconds() + "s" + (log.isEmpty() ? "" : ": " + log)
                    + "; status will say whether it started later");
        }
    }

    private static Map<String, String> hostEnvironment() {
        Map<String, String> env = new TreeMap<>(System.getenv());
        // Inherited GANTRY_ variables would describe another job: only this job's own are set.
        env.keySet().removeIf(name -> name.startsWith(Workload.RESERVED_ENV_PREFIX));
        return env;
    }



    /**
     * The JDK passes argv and environment in the platform's encoding: under a non-UTF-8 locale characters it cannot
     * encode would silently turn into '?', so refuse them instead.
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

    private boolean isOurs(JobRef ref) {
        return ref.backend().equals(NAME) && JOB_ID.matcher(ref.id()).matches();
    }

    /** Every job directory under the work directory, by reference. */
    private Map<JobRef, JobDirectory> everyJob() {
        Map<JobRef, JobDirectory> jobs = new TreeMap<>(Comparator.comparing(JobRef::id));
        for (String id : host.list(settings.workDir().toString())) {
            JobRef ref = new JobRef(NAME, id);
            if (isOurs(ref)) {
                jobs.put(ref, directory(id));
            }
        }
        return jobs;
    }

    private JobDirectory directory(String id) {
        return new JobDirectory(host, settings.workDir().resolve(id).toString());
    }

    private JobDirectory existing(JobRef ref) {
        if (isOurs(ref)) {
            JobDirectory job = directory(ref.id());
            if (job.exists()) {
                return job;
            }
        }
        throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + ref.id() + " in " + settings.workDir()
                + (ref.backend().equals(NAME) ? "" : " (the job belongs to backend '" + ref.backend() + "')"));
    }
}
