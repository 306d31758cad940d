package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kit's hands on one backend instance: submit, wait and read logs with the fixture's deadlines. Every job it
 * submits is remembered, so that the kit cancels it at the end. The instance the kit creates first serves every case;
 * {@link #anotherInstance()} creates one more over the same configuration and state directory, as a later Gantry
 * process would after a restart.
 */
final class Kit implements AutoCloseable {
    static final Duration POLL = Duration.ofMillis(50);
    static final String TICKER = "while :; do echo tick; sleep 0.1; done";
    /** Standard output alone, every line. */
    static final LogOptions STDOUT = new LogOptions(false, OptionalInt.empty(), true, false);

    private final BackendFixture fixture;
    private final TckContext context;
    private final Backend backend;
    private final List<JobRef> submitted;
    private final ExecutorService followers;

    private Kit(BackendFixture fixture, TckContext context, Backend backend, List<JobRef> submitted,
                ExecutorService followers) {
        this.fixture = fixture;
        this.context = context;
        this.backend = backend;
        this.submitted = submitted;
        this.followers = followers;
    }

    /** The first instance, over a fresh context. */
    static Kit start(BackendFixture fixture) {
        TckContext context = TckContext.create();
        try {
            return new Kit(fixture, context, fixture.create(context), new CopyOnWriteArrayList<>(),
                    Executors.newCachedThreadPool());
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    /**
     * A second backend instance, created by the fixture over the same context (so the same state directory) and
     * configuration, as a later Gantry process creates it; {@link #close()} closes that instance only.
     */
    Kit anotherInstance() {
        return new Kit(fixture, context, fixture.create(context), submitted, followers);
    }

    /** Closes this instance alone: what it submitted stays for the other instances (and the kit's cleanup). */
    @Override
    public void close() {
        backend.close();
    }

    /** Cancels every job any instance submitted, closes the first instance and deletes the context. */
    void stop() {
        try {
            for (JobRef job : submitted) {
                try {
                    backend.cancel(job);
                } catch (RuntimeException ignored) {
                    // Best effort: a case may have asserted on a job the backend no longer has.
                }
            }
            backend.close();
        } finally {
            followers.shutdownNow();
            context.close();
        }
    }

    Backend backend() {
        return backend;
    }

    BackendFixture fixture() {
        return fixture;
    }

    TckContext context() {
        return context;
    }

    /** Where the follow cases run their follow calls. */
    ExecutorService followers() {
        return followers;
    }

    /**
     * What the backend can do in this environment as the fixture declares it, which decides the cases that need a
     * capability; the capability case checks that the backend says the same.
     */
    Capabilities declaredCapabilities() {
        return fixture.capabilities(backend);
    }

    /**
     * Skips the case unless the fixture declares the capability for this environment: a case that needs one is
     * skipped by that declaration (by default the backend's own capabilities), never because a probe failed.
     */
    void assumeDeclared(Predicate<Capabilities> capability, String what) {
        assumeTrue(capability.test(declaredCapabilities()), "the fixture declares no " + what + " for this "
                + "environment (BackendFixture.capabilities: " + declaredCapabilities() + ")");
    }

    /** A workload builder with the kit's defaults: a small training workload with a name unique to the case. */
    static Workload.Builder workload(String name) {
        return Workload.builder("tck-" + name).phase(Phase.TRAINING).model(ModelClass.SMALL);
    }

    /** An idempotency key unique to this run. */
    static String key(String name) {
        return "tck-" + name + "-" + UUID.randomUUID();
    }

    /** Submits the fixture's plan for the workload under a fresh key, remembering the job for cleanup. */
    JobRef submit(Workload workload) {
        return submit(fixture.plan(workload), key(workload.name()));
    }

    JobRef submit(Plan plan, String key) {
        return submit(plan, SubmitOptions.withKey(key));
    }

    JobRef submit(Plan plan, SubmitOptions options) {
        JobRef job = backend.submit(plan, options);
        assertNotNull(job, "submit returned no job");
        assertEquals(backend.name(), job.backend(), "a job ref names the backend that made it");
        submitted.add(job);
        return job;
    }

    /** Submits the fixture's plan for the workload, depending on the given jobs. */
    JobRef submitDependent(Workload workload, JobDependency... dependencies) {
        return submit(fixture.plan(workload), SubmitOptions.withKey(key(workload.name())).dependingOn(dependencies));
    }

    /** Asks a job of the environment (the file may be on its hosts only) that {@code file} does not exist. */
    void assertNeverCreated(String file, String why) throws InterruptedException {
        JobRef check = submit(workload("check-absent").command("sh", "-c", "test ! -e \"$1\"", "sh", file).build());
        assertState(JobState.SUCCEEDED, awaitEnd(check), () -> why + ": " + file + " exists");
    }

    /** Polls the jobs together, one {@code statuses} call a round, until every one has ended. */
    void awaitAllEnded(List<JobRef> jobs) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos() * 4;
        while (true) {
            List<JobRef> running = backend.statuses(jobs).entrySet().stream()
                    .filter(e -> !e.getValue().state().isTerminal()).map(Map.Entry::getKey).toList();
            if (running.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail(running.size() + " of " + jobs.size() + " jobs did not end within "
                        + fixture.timeout().multipliedBy(4) + ", e.g. " + running.get(0) + ": "
                        + backend.status(running.get(0)));
            }
            Thread.sleep(POLL.toMillis() * 4);
        }
    }

    /** Polls until the job reaches a terminal state, failing at the fixture's deadline. */
    JobStatus awaitEnd(JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        JobStatus status = backend.status(job);
        while (!status.state().isTerminal()) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not end within " + fixture.timeout() + "; last status " + status);
            }
            Thread.sleep(POLL.toMillis());
            status = backend.status(job);
        }
        return status;
    }

    /** Polls the job's standard output until it satisfies the condition, failing at the deadline. */
    void awaitOutput(JobRef job, Predicate<List<String>> condition) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        List<String> out = lines(job, STDOUT);
        while (!condition.test(out)) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not print the expected output within " + fixture.timeout() + "; stdout so far "
                        + out + ", status " + backend.status(job));
            }
            Thread.sleep(POLL.toMillis());
            out = lines(job, STDOUT);
        }
    }

    List<LogLine> collect(JobRef job, LogOptions options) throws InterruptedException {
        List<LogLine> result = new ArrayList<>();
        backend.logs(job, options, result::add);
        return result;
    }

    List<String> lines(JobRef job, LogOptions options) throws InterruptedException {
        return collect(job, options).stream().map(LogLine::text).collect(Collectors.toList());
    }

    /** The lines of one stream, joined with newlines. */
    String text(JobRef job, LogLine.Stream stream) throws InterruptedException {
        return String.join("\n", textOf(collect(job, LogOptions.all()), stream));
    }

    static List<String> textOf(List<LogLine> lines, LogLine.Stream stream) {
        return lines.stream().filter(l -> l.stream() == stream).map(LogLine::text).collect(Collectors.toList());
    }

    static void assertState(JobState expected, JobStatus actual) {
        assertNotNull(actual, "no status");
        assertEquals(expected, actual.state(), () -> "status was " + actual);
    }

    static void assertState(JobState expected, JobStatus actual, Supplier<String> why) {
        assertNotNull(actual, "no status");
        assertEquals(expected, actual.state(), () -> why.get() + "; status was " + actual);
    }

    /** The ticker prints every 100 ms: once the job is stopped its output must stop growing. */
    void assertSideEffectStopped(JobRef job) throws InterruptedException {
        int before = lines(job, LogOptions.all()).size();
        Thread.sleep(500);
        int after = lines(job, LogOptions.all()).size();
        assertEquals(before, after, "the job kept printing after it was stopped: its processes are still running");
    }

    void assertSecretNotStored(String value) throws IOException {
        byte[] needle = value.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(context.stateDirectory())) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                byte[] content = Files.readAllBytes(file);
                assertFalse(contains(content, needle), "the secret's value was written to " + file);
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
