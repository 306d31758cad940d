package dev.gantry.backend.cyclecloud.slurm;

import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.WAIT;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.awaitEnd;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.awaitOutput;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.awaitState;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.lines;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Faults on the real test cluster: the connection cut between sbatch and its answer, slurmctld restarted while jobs
 * are tracked, the login node's sshd restarted. These stop or restart the shared cluster: run them alone.
 */
class SlurmFaultsTest {
    private final TestCluster cluster = TestCluster.get();
    private TckContext context;
    private Map<String, String> settings;
    private Path bin;

    @BeforeEach
    void setUp() throws Exception {
        context = TckContext.create();
        settings = new java.util.LinkedHashMap<>(cluster.settings());
        // Slurm's commands through wrappers, so that a test can hold sbatch's answer back.
        bin = Path.of(cluster.sharedDirectory(), "bin-" + UUID.randomUUID());
        Files.createDirectories(bin);
        for (String command : List.of("sbatch", "squeue", "scancel", "scontrol", "sinfo", "srun")) {
            String real = TestCluster.slurm("sh", "-c", "command -v " + command).strip();
            String hold = command.equals("sbatch")
                    ? "out=$('" + real + "' \"$@\"); rc=$?; [ -e '" + bin + "/hold' ] && sleep 4; "
                    + "printf '%s\\n' \"$out\"; exit $rc\n"
                    : "exec '" + real + "' \"$@\"\n";
            Path wrapper = bin.resolve(command);
            Files.writeString(wrapper, "#!/bin/sh\n" + hold);
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        TestCluster.slurm("chown", "-R", cluster.value("LOGIN_USER") + ":", bin.toString());
        settings.put("binDir", bin.toString());
    }

    @AfterEach
    void tearDown() {
        TestCluster.slurm("rm", "-rf", bin.toString());
        context.close();
    }

    private Backend backend() {
        return ClusterTesting.backend(settings, context);
    }

    @Test
    void aSubmitCutOffBetweenSbatchAndItsAnswerIsAdoptedByTheRetry() throws Exception {
        try (Backend backend = backend()) {
            Plan plan = plan("cut", "sh", "-c", "echo ran once");
            String key = "cut-" + UUID.randomUUID();
            backend.validate(plan); // connected and probed before the cut
            Files.writeString(bin.resolve("hold"), "");
            CompletableFuture<JobRef> first = CompletableFuture.supplyAsync(() ->
                    backend.submit(plan, SubmitOptions.withKey(key)));
            // sbatch has run once the job's name is in squeue; its answer is still held back by the wrapper.
            awaitSlurmJobs("job-" + key, 1);
            TestCluster.script("drop-login-sessions");
            GantryException lost = assertThrows(GantryException.class, () -> {
                try {
                    first.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause();
                }
            });
            assertTrue(lost.getMessage().contains("lost"), lost.getMessage());
            Files.delete(bin.resolve("hold"));
            JobRef retried = backend.submit(plan, SubmitOptions.withKey(key));
            assertEquals("job-" + key, retried.id());
            JobStatus status = awaitEnd(backend, retried);
            assertEquals(JobState.SUCCEEDED, status.state(), status.toString());
            assertEquals(1, slurmJobs("job-" + key), "exactly one Slurm job for the key");
            assertEquals(List.of("ran once"), lines(backend, retried));
        }
    }

    @Test
    void trackingResumesAfterSlurmctldRestarts() throws Exception {
        try (Backend backend = backend()) {
            JobRef job = backend.submit(plan("ctld", "sh", "-c", "echo started; sleep 8; echo survived"),
                    SubmitOptions.withKey("ctld-" + UUID.randomUUID()));
            // Once the rank runs: an srun whose step is being created while slurmctld restarts can wait forever
            // (Slurm's behaviour, see docs/backends/cyclecloud.md); what is tested here is Gantry's tracking.
            awaitOutput(backend, job, "started");
            TestCluster.script("restart-slurmctld");
            JobStatus status = awaitEnd(backend, job);
            assertEquals(JobState.SUCCEEDED, status.state(), status.toString());
            assertEquals(List.of("started", "survived"), lines(backend, job));
        }
    }

    @Test
    void theBackendReconnectsAfterTheLoginSshdRestarts() throws Exception {
        try (Backend backend = backend()) {
            JobRef job = backend.submit(plan("sshd", "sh", "-c", "sleep 3; echo after restart"),
                    SubmitOptions.withKey("sshd-" + UUID.randomUUID()));
            awaitState(backend, job, JobState.RUNNING);
            TestCluster.script("restart-login-sshd");
            TestCluster.script("drop-login-sessions");
            JobStatus status = awaitEnd(backend, job);
            assertEquals(JobState.SUCCEEDED, status.state(), status.toString());
            assertEquals(List.of("after restart"), lines(backend, job));
            JobRef next = backend.submit(plan("sshd-next", "sh", "-c", "sleep 30"),
                    SubmitOptions.withKey("sshd-next-" + UUID.randomUUID()));
            awaitState(backend, next, JobState.RUNNING);
            backend.cancel(next);
            assertEquals(JobState.CANCELLED, awaitEnd(backend, next).state());
        }
    }

    private static int slurmJobs(String name) {
        return (int) TestCluster.slurm("squeue", "-h", "-t", "all", "-n", name, "-o", "%i").lines()
                .filter(l -> !l.isBlank()).count();
    }

    private static void awaitSlurmJobs(String name, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (slurmJobs(name) < count) {
            if (System.nanoTime() > deadline) {
                fail("no Slurm job named " + name + " within " + WAIT);
            }
            Thread.sleep(50);
        }
    }
}
