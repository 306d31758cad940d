package dev.gantry.backend.batch.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.backend.batch.internal.render.PoolMetadata;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The whole conformance kit against the Batch fake on the pools Gantry makes itself
 * ({@link BatchKitFixture.Pools#GANTRYS}): no {@code pools[*]}, so each plan's pool is created through the fake
 * Resource Manager with the pool identity and scaled by Gantry's formula, and secrets reach the tasks from the blob
 * fake through that identity.
 */
class BatchCreatedPoolsConformanceTest extends KitOnTheFake {
    BatchCreatedPoolsConformanceTest() {
        super(new BatchKitFixture(BatchKitFixture.Pools.GANTRYS, BatchKitFixture.NODE_RETENTION));
    }

    /**
     * What sets this class apart from the warm-pool one: the pools are Gantry's, made through Resource Manager with
     * the pool identity, and a secret reaches the task as a blob of the secrets container read with that identity.
     */
    @Test
    void theKitsJobsRunOnPoolsGantryMadeThroughResourceManagerWithThePoolIdentity() throws InterruptedException {
        SecretRef ref = SecretRef.parse("env:OWN_POOL_SECRET");
        context().putSecret(ref, "own-pool-" + UUID.randomUUID());
        JobRef job = submit(workload("own-pool").command("sh", "-c", "test -n \"$TOKEN\"").secret("TOKEN", ref)
                .build());
        assertEquals(JobState.SUCCEEDED, fixture.awaitEnd(backend(), job).state());
        TaskRef taskRef = TaskRef.parse(job.id()).orElseThrow();
        JsonNode task = fixture.fake().task(taskRef.jobId(), taskRef.taskId()).orElseThrow();
        String poolId = task.path("nodeInfo").path("poolId").asText();

        JsonNode pool = fixture.fake().pool(poolId).orElseThrow();
        List<String> metadata = StreamSupport.stream(pool.path("metadata").spliterator(), false)
                .map(item -> item.path("name").asText() + "=" + item.path("value").asText()).toList();
        assertTrue(metadata.contains(PoolMetadata.OWNER + "=" + PoolMetadata.OWNER_VALUE),
                "the job's pool " + poolId + " carries Gantry's mark: " + metadata);
        assertEquals(List.of(BatchKitFixture.IDENTITY), StreamSupport.stream(pool.path("identity")
                .path("userAssignedIdentities").spliterator(), false).map(id -> id.path("resourceId").asText())
                .toList(), "the pool carries the pool identity");
        assertTrue(fixture.armPool(poolId).isPresent(), "the pool was put through Resource Manager");
        assertEquals(0, fixture.fake().count("Pool_Add"), "pools with an identity are made through Resource "
                + "Manager, never by a data-plane pool add: " + fixture.fake().counts());
        assertEquals(List.of(BatchKitFixture.IDENTITY), StreamSupport.stream(task.path("resourceFiles")
                .spliterator(), false).map(file -> file.path("identityReference").path("resourceId").asText())
                .toList(), "the secrets blob is read with the pool's identity: " + task.path("resourceFiles"));
    }
}
