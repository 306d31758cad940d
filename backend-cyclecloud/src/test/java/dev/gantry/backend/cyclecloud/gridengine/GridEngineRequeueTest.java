package dev.gantry.backend.cyclecloud.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * A Spot job on Grid Engine is rerunnable: when its run is lost as an evicted Spot VM loses it (its shepherd and
 * processes killed, no exit record), Grid Engine runs it again, here on a compute node, with {@code RESTARTED=1},
 * and the workload sees {@code GANTRY_RESUME=1}; Gantry counts the requeue as an eviction, never reports FAILED or
 * PREEMPTED, keeps the environment file for the rerun and removes it at the end. Runs in the compute nodes' queue
 * (on this machine's own execd a rescheduled job never runs again: see docs/backends/cyclecloud.md), taking one of
 * their two slots for a few seconds.
 */
class GridEngineRequeueTest {
    private static final String TICK_THEN_RESUME = "if [ \"${GANTRY_RESUME:-0}\" = 1 ]; then echo \"second run, "
            + "token $TOKEN\"; exit 0; fi; while :; do echo tick; sleep 0.2; done";

    @Test
    void aRescheduledSpotJobRunsAgainResumingAndIsCountedAsAnEviction() throws Exception {
        TestCluster cluster = TestCluster.get();
        Map<String, String> settings = cluster.gridEngineSettings();
        Workload workload = Workload.builder("requeued").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("sh", "-c", TICK_THEN_RESUME).env("TOKEN", "kept-for-the-rerun").build();
        Plan plan = Plan.builder(workload, new VmSize(TestCluster.GRID_ENGINE_NODE_SIZE, "tck", 1, 0.5,
                Optional.empty(), false, Architecture.X64, Set.of("V2"))).spot(true).build();
        try (TckContext context = TckContext.create();
             Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings),
                     context)) {
            JobRef job = backend.submit(plan, SubmitOptions.withKey("requeued-" + UUID.randomUUID()));
            Path dir = Path.of(settings.get("workDir"), job.id());
            long deadline = System.nanoTime() + 90_000_000_000L;
            while (!Files.exists(dir.resolve("rank-0.out")) || !Files.readString(dir.resolve("rank-0.out"))
                    .contains("tick")) {
                if (System.nanoTime() > deadline) {
                    fail(job + " never ticked: " + backend.status(job));
                }
                Thread.sleep(100);
            }
            String number = Files.readString(dir.resolve("ge-id")).strip();
            String firstHost = Files.readString(dir.resolve("started")).strip();
            GridEngineKitFixture.loseTheRun(Path.of(settings.get("workDir")), job);

            Set<JobState> seen = EnumSet.noneOf(JobState.class);
            int evictions = 0;
            JobStatus status = backend.status(job);
            while (!status.state().isTerminal()) {
                if (System.nanoTime() > deadline) {
                    fail(job + " did not complete after its reschedule: " + status + "; states seen " + seen);
                }
                seen.add(status.state());
                assertTrue(status.evictions() >= evictions, "the eviction count never falls: " + status);
                evictions = status.evictions();
                Thread.sleep(200);
                status = backend.status(job);
            }
            assertEquals(JobState.SUCCEEDED, status.state(), status + "; states seen " + seen);
            assertFalse(seen.contains(JobState.FAILED) || seen.contains(JobState.PREEMPTED),
                    "a requeued job is never FAILED or PREEMPTED: states seen " + seen);
            assertEquals(1, status.evictions(), "the reschedule is counted once: " + status);
            assertTrue(status.lastEviction().isPresent(), "the eviction says when and why: " + status);
            String out = Files.readString(dir.resolve("rank-0.out"));
            assertTrue(out.contains("second run, token kept-for-the-rerun"), "the rerun resumed with its "
                    + "environment: " + out);
            String[] started = Files.readString(dir.resolve("started")).strip().split(" ");
            assertEquals(number, started[0], "the same Grid Engine job ran again");
            assertEquals("1", started[1], "the second run is run 1 (the first was " + firstHost + ")");
            assertFalse(Files.exists(dir.resolve("env")), "the environment file is removed once the job ends");
        }
    }
}
