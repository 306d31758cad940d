package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.JobPolling;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.hosts.events.CountingHost;
import dev.gantry.hosts.events.FakeMetadataService;
import dev.gantry.hosts.events.SpotSettings;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Status polls on a spot host: Scheduled Events evict running jobs, and vanished jobs count as evicted. */
class SpotEvictionTest {
    private static final String VM = "spot-gpu-1";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Saves a "checkpoint" when told to stop, as a training job would. */
    private static final String CHECKPOINTING = "trap 'echo checkpoint > \"$GANTRY_JOB_ID.ckpt\"; exit 0' TERM; "
            + "echo started; while :; do sleep 0.1; done";

    private TckContext context;
    private FakeMetadataService imds;
    private final CountingHost host = new CountingHost();
    private final List<JobRef> jobs = new ArrayList<>();
    private ManualBackend backend;

    @BeforeEach
    void start() throws Exception {
        context = TckContext.create();
        imds = new FakeMetadataService(VM);
    }

    @AfterEach
    void stop() {
        jobs.forEach(backend::cancel);
        imds.close();
        context.close();
    }

    private ManualBackend create(Map<String, String> spot) {
        Map<String, String> config = new HashMap<>(spot);
        config.putIfAbsent(SpotSettings.EVENTS_ENDPOINT, imds.eventsUrl());
        ManualSettings settings = ManualSettings.local(context.stateDirectory().resolve("jobs"),
                Duration.ofSeconds(2)).withSpot(SpotSettings.bind(new BackendConfig("manual", config)));
        backend = new ManualBackend(host, settings, context, new Capabilities(false, false, true, false, true,
                Set.of(GpuVendor.NVIDIA)));
        return backend;
    }

    private JobRef submit(String key, String script) throws Exception {
        Workload workload = Workload.builder("spot").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("sh", "-c", script).workingDir(context.scratchDirectory().toString()).build();
        JobRef job = backend.submit(Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                SubmitOptions.withKey(key));
        jobs.add(job);
        Path stdout = context.stateDirectory().resolve("jobs").resolve(job.id()).resolve("stdout");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!(Files.exists(stdout) && Files.readString(stdout).contains("started"))) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not start");
            }
            Thread.sleep(20);
        }
        return job;
    }

    @Test
    void aPreemptEventEvictsEveryRunningJobWithOneQueryPerPoll() throws Exception {
        create(Map.of(SpotSettings.SPOT, "true", SpotSettings.VM_NAME, VM));
        JobRef first = submit("first", CHECKPOINTING);
        JobRef second = submit("second", CHECKPOINTING);
        Map<JobRef, JobStatus> before = backend.statuses(List.of(first, second));
        assertEquals(List.of(JobState.RUNNING, JobState.RUNNING),
                before.values().stream().map(JobStatus::state).toList());
        assertEquals(1, host.runs());
        assertEquals(1, imds.eventQueries());

        String id = imds.injectPreempt(VM);
        Map<JobRef, JobStatus> after = backend.statuses(List.of(first, second));
        assertEquals(2, host.runs(), "one command per poll, however many jobs run");
        assertEquals(2, imds.eventQueries());
        assertTrue(imds.seen().stream().allMatch(FakeMetadataService.Seen::metadataHeader));
        for (JobRef job : List.of(first, second)) {
            JobStatus status = after.get(job);
            assertEquals(JobState.PREEMPTED, status.state(), status.toString());
            assertTrue(status.message().startsWith("evicted: Azure Scheduled Event " + id + " (Preempt, NotBefore "),
                    status.message());
            assertEquals("checkpoint", Files.readString(context.scratchDirectory().resolve(job.id() + ".ckpt"))
                    .strip(), "the job got SIGTERM and saved its checkpoint");
        }
        backend.statuses(List.of(first, second));
        assertEquals(2, host.runs(), "no job runs any more: nothing to watch");
    }

    @Test
    void statusOfOneJobWatchesTooAndEvictsTheJobsNobodyPolled() throws Exception {
        create(Map.of(SpotSettings.SPOT, "true", SpotSettings.VM_NAME, VM));
        JobRef job = submit("polled", CHECKPOINTING);
        JobRef other = submit("unpolled", CHECKPOINTING);
        JobRef done = submit("done", "echo started");
        awaitFile(context.stateDirectory().resolve("jobs").resolve(done.id()).resolve("exit")); // ended, unpolled
        assertEquals(JobState.RUNNING, backend.status(job).state());
        imds.injectPreempt("spot-gpu-2");
        assertEquals(JobState.RUNNING, backend.status(job).state(), "another VM's eviction is not ours");
        String id = imds.injectPreempt(VM);
        assertEquals(JobState.PREEMPTED, backend.status(job).state());
        assertEquals(3, imds.eventQueries());
        assertEquals(3, host.runs());
        JobStatus unpolled = backend.status(other);
        assertEquals(JobState.PREEMPTED, unpolled.state(), "the VM takes every job down: each gets its SIGTERM");
        assertTrue(unpolled.message().contains(id), unpolled.message());
        assertEquals("checkpoint", Files.readString(context.scratchDirectory().resolve(other.id() + ".ckpt")).strip());
        assertEquals(JobState.SUCCEEDED, backend.status(done).state(), "a job that had ended keeps its state");
    }

    @Test
    void aRegularHostIsNeverAsked() throws Exception {
        create(Map.of(SpotSettings.VM_NAME, VM));
        JobRef job = submit("regular", CHECKPOINTING);
        imds.injectPreempt(VM);
        assertEquals(JobState.RUNNING, backend.status(job).state());
        assertEquals(0, host.runs());
        assertEquals(List.of(), imds.seen());
    }

    @Test
    void anUnreadableServiceIsNotedBesideTheRunningJob() throws Exception {
        create(Map.of(SpotSettings.SPOT, "true", SpotSettings.VM_NAME, VM));
        JobRef job = submit("noted", CHECKPOINTING);
        imds.serveDocument("{\"DocumentIncarnation\": 2}");
        JobStatus status = backend.status(job);
        assertEquals(JobState.RUNNING, status.state());
        assertTrue(status.message().contains("(the Scheduled Events document does not follow the contract: Events "
                + "must be a list, but it is missing (from " + imds.eventsUrl() + " on local))"), status.message());
    }

    @Test
    void aJobThatVanishedOnASpotHostWasEvicted() throws Exception {
        create(Map.of(SpotSettings.SPOT, "true", SpotSettings.VM_NAME, VM));
        JobRef job = submit("vanished", CHECKPOINTING);
        killGroup(job);
        JobStatus status = awaitEnd(job);
        assertEquals(JobState.PREEMPTED, status.state());
        assertEquals("process ended without recording an exit code on a spot VM: taken as an eviction; resumable "
                + "from its last checkpoint", status.message());
    }

    @Test
    void aJobThatVanishedOnARegularHostFailed() throws Exception {
        create(Map.of());
        JobRef job = submit("vanished-regular", CHECKPOINTING);
        killGroup(job);
        JobStatus status = awaitEnd(job);
        assertEquals(JobState.FAILED, status.state());
        assertEquals("process ended without recording an exit code (host rebooted or killed?)", status.message());
    }

    private void killGroup(JobRef job) throws Exception {
        String pgid = Files.readString(context.stateDirectory().resolve("jobs").resolve(job.id()).resolve("pgid"))
                .strip();
        Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start();
        assertTrue(kill.waitFor(5, TimeUnit.SECONDS));
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                fail(file + " did not appear");
            }
            Thread.sleep(20);
        }
    }

    private JobStatus awaitEnd(JobRef job) throws InterruptedException {
        return JobPolling.awaitEnd(backend, job, TIMEOUT);
    }
}
