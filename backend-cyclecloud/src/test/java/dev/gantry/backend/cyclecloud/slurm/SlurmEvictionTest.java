package dev.gantry.backend.cyclecloud.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An on-demand job (submitted with --no-requeue) whose node goes down ends PREEMPTED with its eviction counted,
 * never FAILED, and its environment file is gone: Slurm will not run it again, so core resumes it as a new attempt.
 * (Spot jobs, which Slurm requeues, are the conformance kit's eviction case.) Takes a shared test node down: run
 * alone.
 */
class SlurmEvictionTest {
    @Test
    void anOnDemandJobWhoseNodeFailsIsPreemptedNeverFailed() throws Exception {
        TestCluster cluster = TestCluster.get();
        Map<String, String> settings = cluster.settings();
        Workload workload = Workload.builder("evicted").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("sh", "-c", "while :; do echo tick; sleep 0.2; done").env("TOKEN", "not-to-stay").build();
        try (TckContext context = TckContext.create();
             Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings),
                     context)) {
            JobRef job = backend.submit(Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                    SubmitOptions.withKey("evicted-" + UUID.randomUUID()));
            Path dir = Path.of(settings.get("workDir"), job.id());
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(dir.resolve("rank-0.out")) || Files.size(dir.resolve("rank-0.out")) == 0) {
                if (System.nanoTime() > deadline) {
                    fail(job + " never ticked: " + backend.status(job));
                }
                Thread.sleep(100);
            }
            String slurmId = Files.readString(dir.resolve("slurm-id")).strip();
            String node = TestCluster.slurm("squeue", "-h", "-j", slurmId, "-o", "%N").strip();
            try {
                TestCluster.script("node-down", node);
                JobStatus status = backend.status(job);
                while (!status.state().isTerminal()) {
                    if (System.nanoTime() > deadline) {
                        fail(job + " did not end after its node went down: " + status);
                    }
                    Thread.sleep(200);
                    status = backend.status(job);
                }
                assertEquals(JobState.PREEMPTED, status.state(), status.toString());
                assertEquals(1, status.evictions(), status.toString());
                assertTrue(status.lastEviction().orElseThrow().reason().contains("NODE_FAIL")
                        || status.lastEviction().orElseThrow().reason().contains("node failed"), status.toString());
                Thread.sleep(1000);
                assertFalse(Files.exists(dir.resolve("env")), "a job that will not run again keeps no secrets");
            } finally {
                TestCluster.script("node-resume", node);
            }
        }
    }
}
