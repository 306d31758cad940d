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
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.ManualBackend;
import dev.gantry.hosts.LocalHost;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.JobRecord;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ManualBackendTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private TckContext context;
    private Path workDir;
    private final List<JobRef> jobs = new ArrayList<>();
    private Backend backend;

    @BeforeEach
    void start() {
        context = TckContext.create();
        workDir = context.stateDirectory().resolve("jobs");
        backend = create("1s");
    }

    @AfterEach
    void stop() {
        jobs.forEach(backend::cancel);
        context.close();
    }

    private Backend create(String grace) {
        return new ManualBackendProvider().create(new BackendConfig("manual", Map.of("cancelGrace", grace)), context);
    }

    private static Workload.Builder workload(String... command) {
        return Workload.builder("unit").phase(Phase.TRAINING).model(ModelClass.SMALL).command(command);
    }

    private static Plan plan(Workload w) {
        return Plan.builder(w, BackendFixture.smallCpuSize()).build();
    }

    private JobRef submit(Backend on, Workload w, String key) {
        JobRef job = on.submit(plan(w), SubmitOptions.withKey(key));
        jobs.add(job);
        return job;
    }

    private JobStatus awaitEnd(JobRef job) throws InterruptedException {
        return JobPolling.awaitEnd(backend, job, TIMEOUT);
    }

    private String stdout(JobRef job) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        backend.logs(job, new LogOptions(false, java.util.OptionalInt.empty(), true, false),
                line -> lines.add(line.text()));
        return String.join("\n", lines);
    }

    private void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                fail(file + " did not appear");
            }
            Thread.sleep(20);
        }
    }

    /**
     * An interrupt that reaches the follow while the hosts are asked where the job is cuts that command short: it is
     * the caller stopping, an InterruptedException, never a host that "did not answer" (the kit's
     * followStopsWhenInterrupted met this under load).
     */
    @Test
    void aFollowInterruptedWhileTheHostIsAskedForTheJobThrowsInterruptedException() throws Exception {
        JobRef job = submit(backend, workload("sleep", "30").build(), "interrupted-follow");
        Thread.currentThread().interrupt();
        try {
            InterruptedException e = assertThrows(InterruptedException.class, () -> backend.logs(job,
                    new LogOptions(true, java.util.OptionalInt.empty(), true, true), line -> { }));
            assertTrue(e.getMessage().contains(job.id()), e.getMessage());
        } finally {
            Thread.interrupted();
        }
        assertEquals(JobState.RUNNING, backend.status(job).state(), "the job itself runs on");
    }

    @Test
    void providerIsFoundByServiceLoader() {
        List<String> names = ServiceLoader.load(BackendProvider.class).stream()
                .map(p -> p.get().name()).collect(Collectors.toList());
        assertEquals(List.of("manual"), names);
        BackendProvider provider = new ManualBackendProvider();
        List<String> keys = provider.configKeys().stream().map(k -> k.name()).toList();
        assertEquals(List.of("transport", "workDir", "cancelGrace", "containerRuntime", "containerRuntimePath",
                "containerRuntimeOptions[*]", "containerUlimits[*]", "containerRunOptions[*]"), keys.subList(0, 8));
        assertEquals(List.of("spot", "vmName", "scheduledEvents.enabled", "scheduledEvents.endpoint",
                "scheduledEvents.acknowledge"), keys.subList(keys.size() - 5, keys.size()));
        assertTrue(keys.containsAll(List.of("hosts[*].address", "defaults.user", "masterPort")),
                "the ssh transport's keys are declared: " + keys);
        // What the backend can do in some configuration: multi-node over SSH, containers with a runtime.
        assertTrue(provider.capabilities().containers());
        assertTrue(provider.capabilities().multiNode());
        assertTrue(provider.capabilities().spot());
        // What a backend made from settings can do: local, no runtime configured.
        try (Backend local = provider.create(new BackendConfig("manual", Map.of()), context)) {
            assertFalse(local.capabilities().containers());
            assertFalse(local.capabilities().multiNode());
        }
        try (Backend podman = provider.create(new BackendConfig("manual", Map.of("containerRuntime", "podman")),
                context)) {
            assertTrue(podman.capabilities().containers());
        }
    }

    @Test
    void concurrentSubmitsWithOneKeyStartOneProcess() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                Path runs = context.scratchDirectory().resolve("runs-" + round);
                Workload w = workload("sh", "-c", "echo run >> \"$0\"", runs.toString()).build();
                // Two backends as two CLI invocations would have them; both threads submit at the same moment.
                Backend other = create("1s");
                CountDownLatch go = new CountDownLatch(1);
                String key = "same-" + round;
                Future<JobRef> a = pool.submit(() -> {
                    go.await();
                    return submit(backend, w, key);
                });
                Future<JobRef> b = pool.submit(() -> {
                    go.await();
                    return submit(other, w, key);
                });
                go.countDown();
                JobRef first = a.get(10, TimeUnit.SECONDS);
                assertEquals(first, b.get(10, TimeUnit.SECONDS));
                assertEquals(JobState.SUCCEEDED, awaitEnd(first).state());
                assertEquals(List.of("run"), Files.readAllLines(runs), "round " + round + " ran more than once");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void submitThatStoppedBeforeLaunchingIsCompletedOnRetry() throws Exception {
        // What a crash between creating the job directory and starting the process leaves behind.
        JobDirectory dir = new JobDirectory(LocalHost.detect(), workDir.resolve("job-crashed").toString());
        assertTrue(dir.create());
        dir.writeRecord(new JobRecord("unit", List.of("sh", "-c", "echo once"), List.of(), "/",
                Instant.parse("2026-01-01T00:00:00Z"), "crashed"));
        JobRef ref = new JobRef("manual", "job-crashed");
        JobStatus pending = backend.status(ref);
        assertEquals(JobState.PENDING, pending.state());
        assertTrue(pending.message().contains("submit again with the same idempotency key"), pending.message());

        JobRef retried = submit(backend, workload("sh", "-c", "echo once").build(), "crashed");
        assertEquals(ref, retried);
        assertEquals(JobState.SUCCEEDED, awaitEnd(ref).state());
        assertEquals("once", stdout(ref));
    }

    @Test
    void jobCancelledBeforeItStartedNeverRuns() throws Exception {
        JobDirectory dir = new JobDirectory(LocalHost.detect(), workDir.resolve("job-early").toString());
        assertTrue(dir.create());
        JobRef ref = new JobRef("manual", "job-early");
        backend.cancel(ref);
        assertEquals(JobState.CANCELLED, backend.status(ref).state());
        Path ran = context.scratchDirectory().resolve("ran");
        assertEquals(ref, submit(backend, workload("touch", ran.toString()).build(), "early"));
        Thread.sleep(300);
        assertFalse(Files.exists(ran), "a cancelled job must not start on a retried submit");
        assertEquals(JobState.CANCELLED, backend.status(ref).state());
    }

    @Test
    void jobOutlivesTheJvmThatSubmittedIt() throws Exception {
        Path marker = context.scratchDirectory().resolve("survived");
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SubmitAndExit.class.getName(), workDir.toString(),
                "survivor", "sh", "-c", "sleep 3; echo survived > \"$0\"; echo done", marker.toString())
                .redirectErrorStream(true).start();
        assertTrue(jvm.waitFor(30, TimeUnit.SECONDS), "the submitting JVM did not exit");
        String printed = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, jvm.exitValue(), printed);
        assertEquals("job-survivor", printed);
        assertFalse(jvm.isAlive());

        JobRef ref = new JobRef("manual", "job-survivor");
        jobs.add(ref);
        JobStatus running = backend.status(ref);
        assertEquals(JobState.RUNNING, running.state(), "the job should still run after its JVM exited: " + running);
        assertFalse(Files.exists(marker));
        assertEquals(JobState.SUCCEEDED, awaitEnd(ref).state());
        assertEquals("survived", Files.readString(marker).strip());
        assertEquals("done", stdout(ref));
    }

    @Test
    void jobKilledBehindOurBackReportsMissingExitCode() throws Exception {
        JobRef ref = submit(backend, workload("sh", "-c", "while :; do sleep 0.1; done").build(), "killed");
        Path pgid = workDir.resolve("job-killed").resolve("pgid");
        awaitFile(pgid);
        Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + Files.readString(pgid).strip()).start();
        assertTrue(kill.waitFor(5, TimeUnit.SECONDS));
        JobStatus status = awaitEnd(ref);
        assertEquals(JobState.FAILED, status.state());
        assertEquals("process ended without recording an exit code (host rebooted or killed?)", status.message());
    }

    @Test
    void cancelReturnsAsSoonAsTheGroupIsGone() throws Exception {
        Backend patient = create("20s");
        JobRef ref = submit(patient, workload("sh", "-c", "sleep 30").build(), "prompt");
        awaitFile(workDir.resolve("job-prompt").resolve("pid"));
        long start = System.nanoTime();
        patient.cancel(ref);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "cancel waited " + took + " for a job that obeyed TERM");
        assertEquals(JobState.CANCELLED, patient.status(ref).state());
    }

    @Test
    void cancelKillsAJobThatIgnoresTermAfterTheGrace() throws Exception {
        JobRef ref = submit(backend, workload("sh", "-c", "trap '' TERM; while :; do echo tick; sleep 0.1; done")
                .build(), "stubborn");
        // The first tick comes after the trap: a SIGTERM before it would end the job early.
        long ready = System.nanoTime() + TIMEOUT.toNanos();
        while (!stdout(ref).contains("tick") && System.nanoTime() < ready) {
            Thread.sleep(20);
        }
        long start = System.nanoTime();
        backend.cancel(ref);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofMillis(900)) >= 0, "SIGKILL came before the 1s grace: " + took);
        int lines = stdout(ref).split("\n").length;
        Thread.sleep(400);
        assertEquals(lines, stdout(ref).split("\n").length, "the job still prints after SIGKILL");
        assertEquals(JobState.CANCELLED, backend.status(ref).state());
    }

    @Test
    void evictionLetsTheJobCheckpointFirst() throws Exception {
        JobRef ref = submit(backend, workload("sh", "-c",
                "trap 'echo checkpoint saved; exit 0' TERM; echo started; while :; do sleep 0.1; done").build(),
                "evicted");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!stdout(ref).contains("started") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ((ManualBackend) backend).preempt(ref, "spot eviction notice");
        JobStatus status = awaitEnd(ref);
        assertEquals(JobState.PREEMPTED, status.state());
        assertEquals("evicted: spot eviction notice; resumable from its last checkpoint", status.message());
        assertEquals("started\ncheckpoint saved", stdout(ref));
    }

    @Test
    void recordHoldsEnvNamesNeverSecretValues() throws Exception {
        SecretRef ref = SecretRef.parse("env:UNIT_TOKEN_SOURCE");
        context.putSecret(ref, "hunter2-value");
        Workload w = workload("sh", "-c",
                "echo \"$GANTRY_JOB_ID $GANTRY_CHECKPOINT_DIR $MODE $(printf %s \"$TOKEN\" | tr a-z A-Z)\"")
                .env("MODE", "fast").secret("TOKEN", ref).checkpoint(new Checkpoint("/ckpt", Duration.ofMinutes(5)))
                .build();
        JobRef job = submit(backend, w, "with-secret");
        assertEquals(JobState.SUCCEEDED, awaitEnd(job).state());
        assertEquals("job-with-secret /ckpt fast HUNTER2-VALUE", stdout(job));
        String record = Files.readString(workDir.resolve("job-with-secret").resolve("job.json"));
        assertTrue(record.contains("\"envNames\": [\"MODE\", \"TOKEN\"]"), record);
        assertFalse(record.contains("hunter2"), record);
        try (var files = Files.walk(workDir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                assertFalse(Files.readString(file).contains("hunter2-value"), "secret value written to " + file);
            }
        }
        assertFalse(record.contains("fast"), "env values stay out of the record too: " + record);
    }

    @Test
    void anInfiniBandSizesPlanAsTheJobServiceHandsItOverRunsWithItsFamilysNcclEnvironmentAndTheWorkloadsOwnValue()
            throws Exception {
        // The size's name and InfiniBand flag choose the family; its shape is this machine's (one node, no GPU).
        dev.gantry.api.VmSize nd = new dev.gantry.api.VmSize("Standard_ND96isr_H100_v5", "ND", 1, 0.5,
                java.util.Optional.empty(), true, dev.gantry.api.Architecture.X64, java.util.Set.of("V2"));
        Workload w = workload("sh", "-c", "echo \"$NCCL_TOPO_FILE $NCCL_IB_PCI_RELAXED_ORDERING $NCCL_SOCKET_IFNAME"
                + " $CUDA_DEVICE_ORDER $UCX_IB_PCI_RELAXED_ORDERING $NCCL_IGNORE_CPU_AFFINITY\"")
                .env("NCCL_SOCKET_IFNAME", "lo").build();
        JobRef job = backend.submit(FabricEnvironment.applyTo(Plan.builder(w, nd).build()),
                SubmitOptions.withKey("nccl-env"));
        jobs.add(job);
        assertEquals(JobState.SUCCEEDED, awaitEnd(job).state());
        assertEquals("/opt/microsoft/ndv5-topo.xml 1 lo PCI_BUS_ID on 1", stdout(job));
    }

    @Test
    void missingWorkingDirectoryFailsAtSubmit() {
        GantryException e = assertThrows(GantryException.class,
                () -> submit(backend, workload("pwd").workingDir("/no/such/dir").build(), "nowhere"));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals("workingDir: '/no/such/dir' is not a directory on local; create it or set workingDir to an "
                + "existing directory", e.getMessage());
        assertFalse(Files.exists(workDir.resolve("job-nowhere")), "a refused submit leaves no job behind");
    }

    @Test
    void planTheMachineCannotRunIsRejectedWithEveryProblem() {
        Workload w = workload("true").resources(Resources.builder().nodes(2).build()).container("ubuntu:22.04").build();
        GantryException e = assertThrows(GantryException.class,
                () -> backend.submit(plan(w), SubmitOptions.withKey("too-big")));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertEquals(List.of("resources.nodes", "container.image"), e.problems().stream().map(p -> p.path()).toList());
    }

    @Test
    void idsThatAreNotOurJobsAreNotFound() {
        for (JobRef ref : List.of(new JobRef("manual", "../../etc"), new JobRef("manual", "job-../x"),
                new JobRef("aks", "job-x"), new JobRef("manual", "job-never"))) {
            GantryException e = assertThrows(GantryException.class, () -> backend.status(ref));
            assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
            assertTrue(e.getMessage().contains(ref.id()), e.getMessage());
        }
        Map<JobRef, JobStatus> statuses = backend.statuses(List.of(new JobRef("manual", "job-never")));
        assertEquals(JobState.UNKNOWN, statuses.get(new JobRef("manual", "job-never")).state());
    }

    @Test
    void tailAndFollowTogether() throws Exception {
        JobRef ref = submit(backend, workload("sh", "-c", "echo a; echo b; sleep 0.5; echo c").build(), "tail-follow");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!stdout(ref).contains("b") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<String> lines = new ArrayList<>();
        backend.logs(ref, new LogOptions(true, java.util.OptionalInt.of(1), true, true),
                (LogLine line) -> lines.add(line.text()));
        assertEquals(List.of("b", "c"), lines);
    }
}
