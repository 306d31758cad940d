package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.tck.TckContext;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-node Spot job whose node Azure deletes: replacing one rank would leave the other in a broken world, so the
 * whole job ends PREEMPTED with its one eviction counted, never FAILED, and the rank on the surviving node is
 * stopped (its pod gone, its process no longer writing).
 */
class AksGangEvictionTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path home;

    @Test
    void aTwoNodeSpotJobWhoseNodeIsDeletedEndsPreemptedOnceAndItsOtherRankStops() throws Exception {
        try (KubeTestCluster cluster = KubeTestCluster.builder().start(); TckContext context = TckContext.create()) {
            AksKitFixture fixture = new AksKitFixture(cluster, home.resolve("kube/config"));
            Path ticks = context.scratchDirectory();
            Workload workload = Workload.builder("gang").phase(Phase.TRAINING).model(ModelClass.SMALL).command("sh", "-c",
                    "while :; do echo tick >> \"$1/rank-$RANK\"; sleep 0.1; done", "sh", ticks.toString()).build();
            Plan plan = fixture.twoNodePlan(workload);
            JobRef job;
            try (Backend backend = fixture.create(context)) {
                job = backend.submit(plan, SubmitOptions.withKey("gang-" + System.nanoTime()));
                awaitFile(ticks.resolve("rank-0"));
                awaitFile(ticks.resolve("rank-1"));
                String evicted = nodeOfRank(fixture, job, 1);
                cluster.evictNode(evicted);

                Set<JobState> seen = EnumSet.noneOf(JobState.class);
                JobStatus status = backend.status(job);
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                while (!status.state().isTerminal()) {
                    assertTrue(System.nanoTime() < deadline, job + " did not end after its node was deleted: " + status);
                    seen.add(status.state());
                    Thread.sleep(100);
                    status = backend.status(job);
                }
                assertFalse(seen.contains(JobState.FAILED), "never FAILED: " + seen);
                assertEquals(JobState.PREEMPTED, status.state(), status.toString());
                assertEquals(1, status.evictions(), "one eviction: " + status);
                assertTrue(status.lastEviction().isPresent(), status.toString());

                awaitNoPodLeft(fixture, job);
                long rank0 = Files.size(ticks.resolve("rank-0"));
                Thread.sleep(500);
                assertEquals(rank0, Files.size(ticks.resolve("rank-0")), "rank 0 still writes after the job ended");
                assertEquals(JobState.PREEMPTED, backend.status(job).state(), "PREEMPTED stays");
                assertEquals(1, backend.status(job).evictions(), "counted once");
            }
            try (Backend restarted = fixture.create(context)) {
                // What another Gantry process sees: the same single eviction, from the state directory and the Job.
                JobStatus status = restarted.status(job);
                assertEquals(JobState.PREEMPTED, status.state(), status.toString());
                assertEquals(1, status.evictions(), status.toString());
            }
        }
    }

    private static String nodeOfRank(AksKitFixture fixture, JobRef job, int rank) {
        return fixture.pods(job).stream().filter(pod -> Integer.toString(rank).equals(pod.getMetadata()
                        .getAnnotations().get("batch.kubernetes.io/job-completion-index")))
                .map(pod -> pod.getSpec().getNodeName()).findFirst().orElseThrow();
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!Files.exists(file)) {
            assertTrue(System.nanoTime() < deadline, file.getFileName() + " never written: the rank did not start");
            Thread.sleep(50);
        }
    }

    /** The Job controller deletes the surviving rank's pod once the Job failed; the kubelet stops its process. */
    private static void awaitNoPodLeft(AksKitFixture fixture, JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        List<Pod> pods = fixture.pods(job);
        while (pods.stream().anyMatch(AksGangEvictionTest::active)) {
            assertTrue(System.nanoTime() < deadline, "pods of " + job + " still active: " + pods);
            Thread.sleep(100);
            pods = fixture.pods(job);
        }
    }

    private static boolean active(Pod pod) {
        String phase = pod.getStatus() == null ? "Pending" : pod.getStatus().getPhase();
        return "Running".equals(phase) || "Pending".equals(phase);
    }
}
