package dev.gantry.backend.manual;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import dev.gantry.testing.TestPodman;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Container mode against real Podman: what the conformance kit cannot see from outside the backend. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodmanContainerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private TckContext context;
    private ManualBackend backend;
    private final List<JobRef> jobs = new ArrayList<>();

    @BeforeAll
    void start() {
        TestPodman.prepare();
        context = TckContext.create();
        backend = (ManualBackend) new ManualBackendProvider().create(
                new BackendConfig("manual", PodmanSandbox.config(Map.of("cancelGrace", "1s"))), context);
    }

    @AfterAll
    void stop() {
        jobs.forEach(job -> {
            try {
                backend.cancel(job);
            } catch (RuntimeException ignored) {
                // best effort
            }
        });
        context.close();
    }

    private static Workload.Builder workload(String... command) {
        return Workload.builder("podman").phase(Phase.TRAINING).model(ModelClass.SMALL).command(command)
                .container(TestPodman.IMAGE);
    }

    private JobRef submit(Workload workload) {
        JobRef job = backend.submit(Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                SubmitOptions.withKey("podman-" + UUID.randomUUID()));
        jobs.add(job);
        return job;
    }

    private Path jobDirectory(JobRef job) {
        return context.stateDirectory().resolve("jobs").resolve(job.id());
    }

    private Path envFile(JobRef job) {
        return jobDirectory(job).resolve("container.env");
    }

    private static String containerName(JobRef job) {
        return "gantry-" + job.id();
    }

    @Test
    void capabilitiesSayContainersOnceARuntimeIsConfigured() {
        assertTrue(backend.capabilities().containers());
        assertEquals(List.of(), backend.validate(Plan.builder(workload("true").build(),
                BackendFixture.smallCpuSize()).build()));
    }

    @Test
    void secretsReachTheContainerButNoCommandLineAndTheEnvFileIsPrivateWhileItRuns() throws Exception {
        String token = "podman-secret-" + UUID.randomUUID();
        String pem = "-----BEGIN KEY-----\n" + UUID.randomUUID() + "\n-----END KEY-----";
        context.putSecret(SecretRef.parse("env:PODMAN_TOKEN"), token);
        context.putSecret(SecretRef.parse("env:PODMAN_PEM"), pem);
        JobRef job = submit(workload("sh", "-c", "printenv TOKEN | tr a-z A-Z; printenv PEM; echo ready; sleep 30")
                .secret("TOKEN", SecretRef.parse("env:PODMAN_TOKEN"))
                .secret("PEM", SecretRef.parse("env:PODMAN_PEM")).build());
        awaitStdout(job, "ready");

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(envFile(job))),
                "the env file holds secrets: owner only");
        List<String> commandLines = commandLines();
        assertTrue(commandLines.stream().anyMatch(c -> c.contains(containerName(job))),
                "the container's runtime process must be visible to this scan: " + commandLines.size() + " scanned");
        for (String secret : List.of(token, pem.lines().toList().get(1))) {
            assertTrue(commandLines.stream().noneMatch(c -> c.contains(secret)),
                    "a secret's value is on a command line");
        }
        assertEquals(token.toUpperCase(java.util.Locale.ROOT) + "\n" + pem + "\nready", stdout(job),
                "both secrets arrive verbatim, the multi-line one too");

        backend.cancel(job);
        assertEquals(JobState.CANCELLED, awaitEnd(job).state());
        assertFalse(Files.exists(envFile(job)), "cancel removes the env file");
        assertContainerGone(job);
        assertNoFileHolds(jobDirectory(job), token);
    }

    @Test
    void theEnvFileIsGoneWhenTheContainerExitsAndTheCheckpointIsOnTheHost() throws Exception {
        Path checkpoints = context.scratchDirectory().resolve("checkpoints/run-1");
        JobRef job = submit(workload("sh", "-c", "echo step-7 > \"$GANTRY_CHECKPOINT_DIR/latest\"; exit 4")
                .env("SOMETHING", "value")
                .checkpoint(new Checkpoint(checkpoints.toString(), Duration.ofMinutes(5))).build());
        JobStatus status = awaitEnd(job);
        assertEquals(JobState.FAILED, status.state(), status.toString());
        assertEquals(OptionalInt.of(4), status.exitCode(), "the container's exit code is the job's");
        assertEquals("step-7\n", Files.readString(checkpoints.resolve("latest")),
                "the checkpoint directory is mounted at the same path");
        assertFalse(Files.exists(envFile(job)), "the wrapper removes the env file when the container exits");
        assertContainerGone(job);
    }

    @Test
    void anEvictedContainerThatIgnoresSigtermIsRemovedAfterTheGracePeriod() throws Exception {
        // PID 1 of the container ignores SIGTERM: killing the runtime's client alone would leave it running.
        JobRef job = submit(workload("sh", "-c", "trap '' TERM; while :; do echo tick; sleep 0.1; done").build());
        awaitStdout(job, "tick");
        backend.preempt(job, "test eviction");
        JobStatus status = awaitEnd(job);
        assertEquals(JobState.PREEMPTED, status.state(), status.toString());
        assertContainerGone(job);
        assertFalse(Files.exists(envFile(job)), "eviction removes the env file");
        int before = stdout(job).split("\n").length;
        Thread.sleep(400);
        assertEquals(before, stdout(job).split("\n").length, "the container kept printing after the eviction");
    }

    @Test
    void aValueNeitherTheEnvFileNorTheRuntimeCanCarryIsRefusedBeforeAnythingIsWritten() {
        String key = "podman-refused-" + UUID.randomUUID();
        GantryException e = assertThrows(GantryException.class, () -> backend.submit(Plan.builder(
                workload("true").env("LD_LIBRARY_PATH", "/a\n/b").build(), BackendFixture.smallCpuSize()).build(),
                SubmitOptions.withKey(key)));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals(List.of("env.LD_LIBRARY_PATH"), e.problems().stream().map(p -> p.path()).toList());
        assertFalse(Files.exists(context.stateDirectory().resolve("jobs").resolve("job-" + key)),
                "a refused submit leaves no job behind");
    }

    private static void assertContainerGone(JobRef job) {
        TestPodman.Result ps = TestPodman.podman("ps", "--all", "--quiet", "--filter",
                "name=^" + containerName(job) + "$");
        assertEquals(0, ps.code(), ps.output());
        assertEquals("", ps.output(), "the container " + containerName(job) + " is still there");
    }

    /** Every process's argv as one string, read from /proc (what ps shows). */
    private static List<String> commandLines() throws IOException {
        List<String> result = new ArrayList<>();
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) processes.filter(p -> p.getFileName().toString().matches("\\d+"))
                    ::iterator) {
                try {
                    byte[] cmdline = Files.readAllBytes(proc.resolve("cmdline"));
                    result.add(new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' '));
                } catch (NoSuchFileException | java.nio.file.AccessDeniedException ended) {
                    // the process ended while we listed them
                }
            }
        }
        return result;
    }

    private static void assertNoFileHolds(Path directory, String value) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                assertFalse(Files.readString(file, StandardCharsets.ISO_8859_1).contains(value),
                        "the secret's value is in " + file);
            }
        }
    }

    private String stdout(JobRef job) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        backend.logs(job, new LogOptions(false, OptionalInt.empty(), true, false), line -> lines.add(line.text()));
        return lines.stream().collect(Collectors.joining("\n"));
    }

    private void awaitStdout(JobRef job, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!List.of(stdout(job).split("\n")).contains(line)) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not print " + line + ": " + backend.status(job) + ", stderr "
                        + stderr(job));
            }
            Thread.sleep(50);
        }
    }

    private String stderr(JobRef job) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        backend.logs(job, new LogOptions(false, OptionalInt.empty(), false, true),
                line -> lines.add(line.stream() == LogLine.Stream.STDERR ? line.text() : ""));
        return String.join("\n", lines);
    }

    private JobStatus awaitEnd(JobRef job) throws InterruptedException {
        return JobPolling.awaitEnd(backend, job, TIMEOUT);
    }
}
