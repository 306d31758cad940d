package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.await;
import static dev.gantry.backend.manual.internal.SshJobs.awaitEnd;
import static dev.gantry.backend.manual.internal.SshJobs.awaitRunning;
import static dev.gantry.backend.manual.internal.SshJobs.key;
import static dev.gantry.backend.manual.internal.SshJobs.logs;
import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.ssh.TestHosts;
import dev.gantry.tck.TckContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults of real hosts under the ssh transport, injected with scripts/test-hosts.sh: the connection killed in the
 * middle of a submit, sshd restarted while jobs run, a host switched off during a two-host run. Every case leaves
 * the hosts up.
 */
class SshFaultsTest {
    private final SshHosts hosts = new SshHosts();
    private final TckContext context = TckContext.create();
    private final List<ManualBackend> backends = new ArrayList<>();
    private final List<JobRef> jobs = new ArrayList<>();

    private ManualBackend backend(Map<String, String> extra) {
        ManualBackend backend = hosts.backend(context, extra);
        backends.add(backend);
        return backend;
    }

    @AfterEach
    void hostsBackUp() throws Exception {
        TestHosts.script("up", String.valueOf(TestHosts.COUNT));
        ManualBackend any = backend(Map.of());
        for (JobRef job : jobs) {
            try {
                any.cancel(job);
            } catch (RuntimeException ignored) {
                // best effort
            }
        }
        backends.forEach(ManualBackend::close);
        context.close();
        hosts.close();
    }

    /**
     * The submitting process loses its SSH connections and dies at a stage of the submit; a new process (a fresh
     * backend, a fresh connection) retries with the same key and gets the same job, which runs exactly once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"prepared", "launched"})
    void connectionKilledMidSubmitThenRetryFindsTheOneJob(String stage) throws Exception {
        Map<String, String> gpus = Map.of("hosts[0].gpus", "2", "hosts[1].gpus", "2");
        ManualBackend first = backend(gpus);
        first.stages((reached, rank) -> {
            if (reached.equals(stage) && rank == 0) {
                TestHosts.script("drop-sessions", "1");
                TestHosts.script("drop-sessions", "2");
                throw new IllegalStateException("the submitting process died at " + stage);
            }
        });
        // Each rank's node health check finds its GPU listed by a stand-in nvidia-smi: the test hosts have none.
        Plan plan = plan(workload("mid-submit").command("sh", "-c",
                "echo \"ran on $NODE_RANK with GPU $CUDA_VISIBLE_DEVICES\"; sleep 1")
                .env("PATH", hosts.pathWithNvidiaSmi(1)), 2, 1);
        String key = key("mid-submit");
        assertThrows(IllegalStateException.class, () -> first.submit(plan, SubmitOptions.withKey(key)));

        ManualBackend retry = backend(gpus);
        JobRef job = retry.submit(plan, SubmitOptions.withKey(key));
        jobs.add(job);
        JobRef again = retry.submit(plan, SubmitOptions.withKey(key));
        assertEquals(job, again);
        JobStatus status = awaitEnd(retry, job);
        assertEquals(JobState.SUCCEEDED, status.state(), status.message());
        assertEquals(List.of("ran on 0 with GPU 0", "ran on 1 with GPU 0"),
                logs(retry, job).stream().map(LogLine::text).sorted().toList(), "each rank ran exactly once");
        // The rank placed by the retry recorded the GPU it holds, so placement counts it.
        assertEquals(List.of(0), retry.scanAll().get("gantry-h2").entries().get(job.id()).placement().orElseThrow()
                .gpus());
    }

    /** The pool reconnects under a submit whose connections were dropped: the submit completes. */
    @Test
    void connectionDroppedDuringSubmitIsReopened() throws Exception {
        ManualBackend backend = backend(Map.of());
        backend.stages((reached, rank) -> {
            if (reached.equals("launched")) {
                TestHosts.script("drop-sessions", String.valueOf(rank + 1));
            }
        });
        JobRef job = backend.submit(plan(workload("dropped").command("echo", "once"), 2, 0),
                SubmitOptions.withKey(key("dropped")));
        jobs.add(job);
        assertEquals(JobState.SUCCEEDED, awaitEnd(backend, job).state());
        assertEquals(List.of("once", "once"), logs(backend, job).stream().map(LogLine::text).toList());
    }

    @Test
    void sshdRestartedWhileJobsRunThenTrackingResumes() throws Exception {
        ManualBackend backend = backend(Map.of());
        JobRef two = backend.submit(plan(workload("restart-2").command("sleep", "30"), 2, 0),
                SubmitOptions.withKey(key("restart-2")));
        JobRef one = backend.submit(plan(workload("restart-1").command("sleep", "30"), 1, 0),
                SubmitOptions.withKey(key("restart-1")));
        jobs.add(two);
        jobs.add(one);
        awaitRunning(backend, two);
        TestHosts.script("restart-sshd", "1");
        TestHosts.script("restart-sshd", "2");
        TestHosts.script("drop-sessions", "1"); // open sessions survive a restart; these are cut as well
        TestHosts.script("drop-sessions", "2");

        Map<JobRef, JobStatus> statuses = backend.statuses(List.of(two, one));
        assertEquals(JobState.RUNNING, statuses.get(two).state(), statuses.get(two).message());
        assertEquals(JobState.RUNNING, statuses.get(one).state(), statuses.get(one).message());
        ManualBackend later = backend(Map.of()); // a later CLI invocation, new connections
        assertEquals(JobState.RUNNING, later.status(two).state());
        later.cancel(two);
        assertEquals(JobState.CANCELLED, backend.status(two).state());
        assertEquals(JobState.RUNNING, backend.status(one).state());
    }

    /**
     * A host switched off under rank 1: its rank is lost; the job FAILS naming the rank and host (PREEMPTED when
     * the host is a Spot VM), within a bounded time, and rank 0 is stopped.
     */
    @ParameterizedTest
    @CsvSource({"false, FAILED, host cannot be reached", "true, PREEMPTED, host vanished (Spot VM"})
    void hostPoweredOffDuringTwoHostRun(boolean spot, JobState expected, String why) throws Exception {
        ManualBackend backend = backend(Map.of("hosts[1].spot", String.valueOf(spot)));
        JobRef job = backend.submit(plan(workload("power-off").command("sh", "-c",
                "while :; do echo tick; sleep 0.2; done"), 2, 0), SubmitOptions.withKey(key("power-off")));
        jobs.add(job);
        awaitRunning(backend, job);
        TestHosts.script("power-off", "2");

        long started = System.nanoTime();
        JobStatus status = await(backend, job, s -> s.state().isTerminal(), Duration.ofSeconds(30));
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertEquals(expected, status.state(), status.message());
        assertTrue(status.message().startsWith("rank 1 on gantry-h2: " + why), status.message());
        assertTrue(seconds < 15, "noticed after " + seconds + " s");
        HostScan.Entry rank0 = backend.scanAll().get("gantry-h1").entries().get(job.id());
        assertTrue(rank0.snapshot().cancelled(), "rank 0 was stopped");
        assertFalse(rank0.snapshot().alive(), "rank 0's processes are gone");
    }
}
