package dev.gantry.backend.batch.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.internal.pools.IdlePools;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.tck.TckContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The acceptance point on money: after the idle timeout the fake holds no Gantry pool with nodes (autoscale
 * took each to zero, with nobody calling gc), and after gc (the backend's idle resources, released) no idle Gantry
 * pool or job. The pools are Gantry's own ({@link BatchKitFixture.Pools#GANTRYS}): one-node Spot, two-node Spot and
 * dedicated. The fake keeps idle nodes {@link #NODE_RETENTION} here, not the kit's half minute: this test reads no
 * task's files, and the property holds whenever retention and an evaluation interval fit in the idle timeout (on
 * Batch: a sample and a five-minute evaluation within the default hour).
 */
class GantryPoolsAfterTheIdleTimeoutTest {
    private static final Duration NODE_RETENTION = Duration.ofMillis(500);

    private final BatchKitFixture fixture = new BatchKitFixture(BatchKitFixture.Pools.GANTRYS, NODE_RETENTION);
    private final BatchFake fake = fixture.fake();
    private final TckContext context = TckContext.create();
    private final Backend backend = fixture.create(context);

    @AfterEach
    void close() {
        backend.close();
        fixture.close();
        context.close();
    }

    @Test
    void afterTheIdleTimeoutNoGantryPoolHasNodesAndAfterGcNoGantryPoolOrJobIsLeft() throws InterruptedException {
        List<JobRef> jobs = List.of(
                backend.submit(fixture.plan(BatchKitFixture.workload("idle-spot").command("true").build()),
                        SubmitOptions.withKey("idle-spot")),
                backend.submit(fixture.twoNodePlan(BatchKitFixture.workload("idle-two").command("true").build()),
                        SubmitOptions.withKey("idle-two")),
                backend.submit(fixture.dedicatedPlan(BatchKitFixture.workload("idle-dedicated").command("true")
                        .build()), SubmitOptions.withKey("idle-dedicated")));
        for (JobRef job : jobs) {
            assertEquals(JobState.SUCCEEDED, fixture.awaitEnd(backend, job).state(), job.id());
        }
        List<String> gantryPools = gantryPools();
        assertEquals(3, gantryPools.size(), "one pool per key: " + fake.poolIds());
        assertEquals(Set.copyOf(gantryPools), jobs.stream().map(this::poolThatRan).collect(Collectors.toSet()),
                "each pool had a node that ran its job");

        List<IdleResource> idle = await("the idle timeout to pass for the three pools", () -> {
            List<IdleResource> pools = backend.idleResources().stream()
                    .filter(resource -> resource.kind().equals(IdlePools.POOL)).toList();
            return pools.size() == gantryPools.size() ? pools : null;
        });
        Map<String, List<String>> nodes = gantryPools().stream().collect(Collectors.toMap(pool -> pool,
                fake::nodeIds));
        assertTrue(nodes.values().stream().allMatch(List::isEmpty), "after the idle timeout no Gantry pool holds "
                + "a node (autoscale took each to zero): " + nodes);

        for (IdleResource resource : backend.idleResources()) {
            assertTrue(backend.release(resource), "released " + resource.describe());
        }
        await("the released pools and jobs to be gone", () -> gantryPools().isEmpty() && fake.jobIds().isEmpty()
                ? true : null);
        assertEquals(List.of(), backend.idleResources(), "after gc nothing is idle");
    }

    /**
     * gc beside a driver: a submit that meets its pool being deleted (Resource Manager shows it {@code Deleting})
     * waits until Batch has removed it and makes it anew, with its job, instead of adopting a pool about to vanish.
     */
    @Test
    void aSubmitRightAfterGcReleasedItsPoolMakesThePoolAgainOnceItIsGone() throws InterruptedException {
        JobRef first = backend.submit(fixture.plan(BatchKitFixture.workload("gc-first").command("true").build()),
                SubmitOptions.withKey("gc-first"));
        assertEquals(JobState.SUCCEEDED, fixture.awaitEnd(backend, first).state());
        IdleResource pool = await("the pool to be idle", () -> backend.idleResources().stream()
                .filter(resource -> resource.kind().equals(IdlePools.POOL)).findFirst().orElse(null));
        assertTrue(backend.release(pool), "released " + pool.describe());
        assertEquals(Optional.of("Deleting"), armState(pool.id()), "Resource Manager shows the pool going");

        JobRef second = backend.submit(fixture.plan(BatchKitFixture.workload("gc-second").command("true").build()),
                SubmitOptions.withKey("gc-second"));

        assertEquals(JobState.SUCCEEDED, fixture.awaitEnd(backend, second).state(), "ran on the pool made anew");
        assertEquals(pool.id(), poolThatRan(second));
        assertEquals(Optional.of("Succeeded"), armState(pool.id()));
    }

    private Optional<String> armState(String poolId) {
        return fixture.armPool(poolId).map(arm -> arm.path("properties").path("provisioningState").asText());
    }

    /** The pools the fake holds that carry Gantry's mark. */
    private List<String> gantryPools() {
        return fake.poolIds().stream().filter(id -> fake.pool(id).map(GantryPoolsAfterTheIdleTimeoutTest::isGantrys)
                .orElse(false)).toList();
    }

    private static boolean isGantrys(JsonNode pool) {
        return StreamSupport.stream(pool.path("metadata").spliterator(), false).anyMatch(item -> item.path("name")
                .asText().equals(PoolMetadata.OWNER) && item.path("value").asText().equals(PoolMetadata.OWNER_VALUE));
    }

    /** The pool of the node that ran the job's task, as the task's {@code nodeInfo} says. */
    private String poolThatRan(JobRef job) {
        TaskRef ref = TaskRef.parse(job.id()).orElseThrow();
        return fake.task(ref.jobId(), ref.taskId()).orElseThrow().path("nodeInfo").path("poolId").asText();
    }

    private <T> T await(String what, Supplier<T> answer) throws InterruptedException {
        Instant deadline = Instant.now().plus(fixture.timeout());
        T value = answer.get();
        while (value == null) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out after " + fixture.timeout() + " waiting for " + what);
            }
            Thread.sleep(100);
            value = answer.get();
        }
        return value;
    }
}
