package dev.gantry.tck;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A test backend that runs each job as a process of this JVM and keeps its job table in a {@link JobTable} object.
 * It does everything the kit's older cases ask; whether it survives a restart depends on where its table lives and on
 * what {@link #close()} does, which {@link Flaw} chooses. The kit's restart cases are tested against its flawed
 * forms ({@link KitCatchesBackendsThatLoseJobsTest}).
 */
final class LocalProcessBackend implements Backend {
    /** How this backend fails (or does not fail) a restart. */
    enum Flaw {
        /** None: its table is kept per state directory (as a plugin keeps its records there) and close() releases. */
        NONE,
        /** Its table lives in the instance, as a plugin that keeps its jobs in memory: a restart forgets them. */
        FORGETS_JOBS_ON_RESTART,
        /** Its table is kept, but close() cancels the jobs it submitted, as a plugin that tidies up too much. */
        STOPS_JOBS_ON_CLOSE,
        /** Its release of an idle resource says yes and keeps it, as a plugin whose delete never reaches the service. */
        KEEPS_RELEASED_RESOURCES
    }

    /** Every process any instance started, so that the test can end what a flawed backend left running. */
    private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();
    /** The tables that outlive an instance, one per state directory: what a real backend writes there. */
    private static final Map<Path, JobTable> KEPT = new ConcurrentHashMap<>();

    private static final String SCRATCH = "scratch";

    private final BackendContext context;
    private final Flaw flaw;
    private final JobTable table;
    private final Path logs;

    LocalProcessBackend(BackendContext context, Flaw flaw) {
        this.context = context;
        this.flaw = flaw;
        this.table = flaw == Flaw.FORGETS_JOBS_ON_RESTART ? new JobTable()
                : KEPT.computeIfAbsent(context.stateDirectory(), dir -> new JobTable());
        try {
            this.logs = Files.createDirectories(context.stateDirectory().resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills what every instance started and is still running. */
    static void killAll() {
        for (Process process : STARTED) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        STARTED.clear();
    }

    @Override
    public String name() {
        return "local-process";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().followLogs(true).build();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        if (plan.nodes() > 1) {
            problems.add(Problem.of("nodes", "runs jobs of one node, got " + plan.nodes()));
        }
        plan.workload().container().ifPresent(c -> problems.add(Problem.of("container", "runs no containers")));
        return problems;
    }

    @Override
    public synchronized JobRef submit(Plan plan, SubmitOptions options) {
        String known = table.byKey.get(options.idempotencyKey());
        if (known != null) {
            return new JobRef(name(), known);
        }
        String id = "job-" + UUID.randomUUID();
        JobRef ref = new JobRef(name(), id);
        Map<String, String> env = new LinkedHashMap<>(plan.workload().env());
        plan.workload().secrets().forEach((name, secret) -> env.put(name, context.secrets().resolve(secret).reveal()));
        env.putAll(JobEnvironment.of(id, plan, options, JobEnvironment.Rendezvous.singleNode()));
        ProcessBuilder builder = new ProcessBuilder(plan.workload().command())
                .redirectOutput(stdout(id).toFile()).redirectError(stderr(id).toFile());
        builder.environment().putAll(env);
        plan.workload().workingDir().ifPresent(dir -> builder.directory(new File(dir)));
        Job job = new Job(context.clock());
        try {
            Files.createFile(stdout(id));
            Files.createFile(stderr(id));
            job.process = builder.start();
            STARTED.add(job.process);
        } catch (IOException e) {
            job.ended = job.started;
            job.startFailure = "cannot start " + plan.workload().command().get(0) + ": " + e.getMessage();
        }
        table.jobs.put(id, job);
        table.byKey.put(options.idempotencyKey(), id);
        return ref;
    }

    @Override
    public JobStatus status(JobRef ref) {
        return job(ref).status();
    }

    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> refs) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : refs) {
            Job job = table.jobs.get(ref.id());
            result.put(ref, job == null ? JobStatus.of(JobState.UNKNOWN, "no job " + ref.id()) : job.status());
        }
        return result;
    }

    @Override
    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        Job job = job(ref);
        LogTail out = new LogTail(stdout(ref.id()), LogLine.Stream.STDOUT);
        LogTail err = new LogTail(stderr(ref.id()), LogLine.Stream.STDERR);
        if (!options.follow()) {
            if (options.stdout()) {
                out.deliverLast(options.tailLines(), sink);
            }
            if (options.stderr()) {
                err.deliverLast(options.tailLines(), sink);
            }
            return;
        }
        while (true) {
            boolean ended = job.status().state().isTerminal();
            out.deliverNew(sink);
            err.deliverNew(sink);
            if (ended) {
                return;
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void cancel(JobRef ref) {
        job(ref).stop(JobState.CANCELLED, Optional.empty());
    }

    /** Leaves a scratch directory idle: what a pool left without work is to a backend that creates pools. */
    void leaveIdleScratch() {
        try {
            Files.createDirectories(idleScratch().resolve("scratch-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<IdleResource> idleResources() {
        try (Stream<Path> dirs = Files.list(Files.createDirectories(idleScratch()))) {
            return dirs.sorted().map(dir -> IdleResource.of(SCRATCH, dir.getFileName().toString(),
                    "left without work by the kit")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean release(IdleResource resource) {
        if (!resource.kind().equals(SCRATCH) || resource.id().contains("/")) {
            return Backend.super.release(resource);
        }
        if (flaw != Flaw.KEEPS_RELEASED_RESOURCES) {
            try {
                Files.deleteIfExists(idleScratch().resolve(resource.id()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return true;
    }

    private Path idleScratch() {
        return context.stateDirectory().resolve("idle");
    }

    /** Evicts the job: it is killed and ends PREEMPTED. */
    void preempt(JobRef ref) {
        job(ref).stop(JobState.PREEMPTED, Optional.of(new Eviction(context.clock().instant(), "test eviction")));
    }

    @Override
    public void close() {
        if (flaw == Flaw.STOPS_JOBS_ON_CLOSE) {
            table.jobs.values().forEach(job -> job.stop(JobState.CANCELLED, Optional.empty()));
        }
    }

    private Job job(JobRef ref) {
        Job job = table.jobs.get(ref.id());
        if (job == null) {
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + ref.id() + " on this backend");
        }
        return job;
    }

    private Path stdout(String id) {
        return logs.resolve(id + ".out");
    }

    private Path stderr(String id) {
        return logs.resolve(id + ".err");
    }

    /** The jobs by id, and their ids by idempotency key. */
    static final class JobTable {
        final Map<String, Job> jobs = new ConcurrentHashMap<>();
        final Map<String, String> byKey = new ConcurrentHashMap<>();
    }

    /** One job: its process, or why it could not start, and how it was stopped. */
    static final class Job {
        final Clock clock;
        final Instant started;
        Process process;
        String startFailure;
        Instant ended;
        JobState stoppedAs;
        Optional<Eviction> eviction = Optional.empty();

        Job(Clock clock) {
            this.clock = clock;
            this.started = clock.instant();
        }

        synchronized void stop(JobState as, Optional<Eviction> why) {
            if (process == null || !process.isAlive() || stoppedAs != null) {
                return;
            }
            stoppedAs = as;
            eviction = why;
            List<ProcessHandle> descendants = process.descendants().toList();
            process.destroyForcibly();
            descendants.forEach(ProcessHandle::destroyForcibly);
            process.onExit().join();
            ended = clock.instant();
        }

        /** The job's status; the first look after its process ended records when it ended. */
        synchronized JobStatus status() {
            if (startFailure != null) {
                return new JobStatus(JobState.FAILED, OptionalInt.of(127), startFailure, Optional.of(started),
                        Optional.of(ended));
            }
            if (process.isAlive()) {
                return new JobStatus(JobState.RUNNING, OptionalInt.empty(), "running", Optional.of(started),
                        Optional.empty());
            }
            if (ended == null) {
                ended = clock.instant();
            }
            if (stoppedAs != null) {
                JobStatus status = new JobStatus(stoppedAs, OptionalInt.empty(), stoppedAs.name().toLowerCase(),
                        Optional.of(started), Optional.of(ended));
                return eviction.map(status::withEviction).orElse(status);
            }
            int code = process.exitValue();
            return new JobStatus(code == 0 ? JobState.SUCCEEDED : JobState.FAILED, OptionalInt.of(code),
                    "exit " + code, Optional.of(started), Optional.of(ended));
        }
    }

    /** One log file read whole or from where the last read stopped, in complete lines. */
    private static final class LogTail {
        private final Path file;
        private final LogLine.Stream stream;
        private long offset;

        LogTail(Path file, LogLine.Stream stream) {
            this.file = file;
            this.stream = stream;
        }

        void deliverLast(OptionalInt tail, LogSink sink) {
            List<String> lines = split(read(0), true);
            int from = tail.isPresent() ? Math.max(0, lines.size() - tail.getAsInt()) : 0;
            lines.subList(from, lines.size()).forEach(text -> sink.accept(new LogLine(stream, 0, text)));
        }

        void deliverNew(LogSink sink) {
            String text = read(offset);
            int end = text.lastIndexOf('\n') + 1;
            offset += text.substring(0, end).getBytes(StandardCharsets.UTF_8).length;
            split(text.substring(0, end), false).forEach(line -> sink.accept(new LogLine(stream, 0, line)));
        }

        private String read(long from) {
            try {
                byte[] all = Files.readAllBytes(file);
                return new String(all, (int) from, all.length - (int) from, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static List<String> split(String text, boolean keepLastPartial) {
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            String last = lines.remove(lines.size() - 1);
            if (keepLastPartial && !last.isEmpty()) {
                lines.add(last);
            }
            return lines;
        }
    }
}
