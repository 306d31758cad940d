package dev.gantry.backend.batch.internal.pools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.JobAddParameter;
import com.microsoft.azure.batch.protocol.models.PoolInformation;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.ExistingPool;
import dev.gantry.backend.batch.internal.FakeAccounts;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The gc hook's pools and nodes against the Batch fake, with an idle timeout of a fraction of a second. */
class IdlePoolsTest {
    private static final Duration IDLE = Duration.ofMillis(400);

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().auth(true, false)
            .autoscaleInterval(Duration.ofMillis(100)).poolDeletion(Duration.ofMillis(200)));
    private final BatchConnection connection = FakeAccounts.sharedKey(fake);
    private final BatchServiceClient batch = connection.protocol();

    @AfterEach
    void close() {
        connection.close();
        fake.close();
    }

    private IdlePools idlePools(List<ExistingPool> existing, Optional<String> resourceId,
            Optional<BatchManagement> management) {
        BatchAccountSettings account = FakeAccounts.account(fake, BatchAuth.SHARED_KEY, resourceId);
        return new IdlePools(account, FakeAccounts.settings(List.of(account), existing, Optional.empty(),
                Optional.empty(), IDLE, Duration.ofDays(7)), FakeAccounts.calls(connection), management, Clock.systemUTC());
    }

    private IdlePools idlePools() {
        return idlePools(List.of(), Optional.empty(), Optional.empty());
    }

    private void jobWithTask(String poolId, String taskId, String command) {
        batch.jobs().add(new JobAddParameter().withId(poolId).withPoolInfo(new PoolInformation().withPoolId(poolId)));
        addTask(poolId, taskId, command);
    }

    private void addTask(String jobId, String taskId, String command) {
        batch.tasks().add(jobId, new TaskAddParameter().withId(taskId).withCommandLine(command));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    private String state(String jobId, String taskId) {
        return fake.task(jobId, taskId).map(task -> task.path("state").asText()).orElse("gone");
    }

    private List<String> ids(List<IdleResource> resources) {
        return resources.stream().map(IdleResource::id).toList();
    }

    @Test
    void aGantryPoolIsIdleOnlyAfterItsJobHadNothingToRunForTheTimeout() throws Exception {
        FakeAccounts.addPool(batch, "gantry-d2-busy", true);
        jobWithTask("gantry-d2-busy", "t1", "/bin/sh -c 'sleep 30'");
        FakeAccounts.addPool(batch, "gantry-d2-done", true);
        jobWithTask("gantry-d2-done", "t1", "/bin/sh -c 'true'");
        FakeAccounts.addPool(batch, "gantry-d2-never-used", true);
        FakeAccounts.addPool(batch, "gantry-not-ours", false);
        FakeAccounts.addPool(batch, "gantry-listed", true);
        IdlePools pools = idlePools(List.of(new ExistingPool("Standard_D2s_v5", "gantry-listed")), Optional.empty(),
                Optional.empty());

        await("the short task to end", () -> state("gantry-d2-done", "t1").equals("completed"));
        Instant ended = Instant.parse(fake.task("gantry-d2-done", "t1").orElseThrow().path("stateTransitionTime")
                .asText());
        assertFalse(ids(pools.idleResources()).contains("gantry-d2-done"), "ended just now: not idle yet");
        Thread.sleep(IDLE.toMillis() + 100);

        List<IdleResource> idle = pools.idleResources();
        assertEquals(Set.of("gantry-d2-done", "gantry-d2-never-used"), Set.copyOf(ids(idle)),
                "the busy pool, a pool without Gantry's mark and one of pools[*] are never idle");
        IdleResource done = idle.stream().filter(r -> r.id().equals("gantry-d2-done")).findFirst().orElseThrow();
        assertEquals(IdlePools.POOL, done.kind());
        assertEquals(Optional.of(pools.location()), done.location());
        assertEquals(Optional.of(ended.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)), done.idleSince(), "idle since its last task state change");
        assertTrue(done.reason().contains("no active or running task"), done.reason());
    }

    @Test
    void releaseDeletesTheJobAndThePoolAndIsDoneOnceGone() throws Exception {
        FakeAccounts.addPool(batch, "gantry-d2-done", true);
        jobWithTask("gantry-d2-done", "t1", "/bin/sh -c 'true'");
        await("the task to end", () -> state("gantry-d2-done", "t1").equals("completed"));
        Thread.sleep(IDLE.toMillis() + 100);
        IdlePools pools = idlePools();
        IdleResource idle = pools.idleResources().get(0);

        assertTrue(pools.release(idle));
        assertEquals(1, fake.count("Job_Terminate"));
        assertEquals(1, fake.count("Job_Delete"));
        assertEquals(1, fake.count("Pool_Delete"));
        assertEquals(List.of(), pools.idleResources(), "a pool being deleted is not reported again");
        await("the pool to go", () -> fake.poolIds().isEmpty());
        assertFalse(fake.jobIds().contains("gantry-d2-done"));
        assertTrue(pools.release(idle), "already gone: nothing to do");
    }

    @Test
    void releaseKeepsAPoolThatIsInUseAgain() throws Exception {
        FakeAccounts.addPool(batch, "gantry-d2-pool", true);
        jobWithTask("gantry-d2-pool", "t1", "/bin/sh -c 'true'");
        await("the task to end", () -> state("gantry-d2-pool", "t1").equals("completed"));
        Thread.sleep(IDLE.toMillis() + 100);
        IdlePools pools = idlePools();
        IdleResource idle = pools.idleResources().get(0);

        addTask("gantry-d2-pool", "t2", "/bin/sh -c 'sleep 30'");
        assertFalse(pools.release(idle), "a task was submitted meanwhile");
        assertEquals(0, fake.count("Pool_Delete"));
        assertEquals(0, fake.count("Job_Terminate"));
        assertTrue(fake.pool("gantry-d2-pool").isPresent());
    }

    @Test
    void neverReleasesAnExistingPoolOrAPoolWithoutGantrysMark() {
        FakeAccounts.addPool(batch, "gantry-listed", true);
        FakeAccounts.addPool(batch, "gantry-not-ours", false);
        IdlePools pools = idlePools(List.of(new ExistingPool("Standard_D2s_v5", "gantry-listed")), Optional.empty(),
                Optional.empty());
        GantryException listed = assertThrows(GantryException.class, () -> pools.release(poolResource(pools,
                "gantry-listed")));
        assertEquals(ErrorCode.USAGE, listed.code());
        assertTrue(listed.getMessage().contains("never changes"), listed.getMessage());
        GantryException notOurs = assertThrows(GantryException.class, () -> pools.release(poolResource(pools,
                "gantry-not-ours")));
        assertTrue(notOurs.getMessage().contains("does not mark it as Gantry's"), notOurs.getMessage());
        assertEquals(0, fake.count("Pool_Delete"));
    }

    private static IdleResource poolResource(IdlePools pools, String id) {
        return IdleResource.of(IdlePools.POOL, id, "test").withLocation(pools.location());
    }

    @Test
    void aPreemptedNodeOfABusyPoolIsReportedAndRemoved() throws Exception {
        FakeAccounts.addPool(batch, "gantry-d2-spot", true, true); // Batch preempts only Spot nodes
        jobWithTask("gantry-d2-spot", "t1", "/bin/sh -c 'sleep 30'");
        await("the task to run", () -> state("gantry-d2-spot", "t1").equals("running"));
        String node = fake.preemptNodeOf("gantry-d2-spot", "t1");
        IdlePools pools = idlePools();

        List<IdleResource> idle = pools.idleResources();
        assertEquals(List.of("gantry-d2-spot/" + node), ids(idle));
        assertEquals(IdlePools.NODE, idle.get(0).kind());
        assertTrue(pools.release(idle.get(0)));
        assertEquals(1, fake.count("Pool_RemoveNodes"));
        await("the node to go", () -> !fake.nodeIds("gantry-d2-spot").contains(node));
        assertEquals(List.of(), pools.idleResources());
        assertTrue(pools.release(idle.get(0)), "already gone");
    }

    @Test
    void aPoolWithAnIdentityIsDeletedThroughResourceManager() throws Exception {
        try (ArmFake arm = new ArmFake()) {
            BatchAccountModel model = arm.batchAccount("ml", "gantryfake", FakeAccounts.REGION,
                    PoolAllocationMode.USER_SUBSCRIPTION);
            model.dataPlanePools(() -> Set.copyOf(fake.poolIds()));
            model.addPoolListener(new BatchAccountModel.PoolListener() {
                @Override
                public void put(String poolName, com.fasterxml.jackson.databind.JsonNode armPool) {
                }

                @Override
                public void deleted(String poolName) {
                    batch.pools().delete(poolName); // one pool state behind both doors, as in Batch
                }
            });
            FakeAccounts.addPool(batch, "gantry-d2-identity", true);
            fake.addPoolIdentity("gantry-d2-identity", "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/"
                    + "ml/providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools");
            Thread.sleep(IDLE.toMillis() + 100);
            IdlePools pools = idlePools(List.of(), Optional.of(model.resourceId()),
                    Optional.of(new BatchManagement(arm.connector())));

            assertTrue(pools.release(pools.idleResources().get(0)));
            assertEquals(1, arm.requests("DELETE", "/pools/gantry-d2-identity").size());
            await("the pool to go", () -> fake.poolIds().isEmpty());
        }
    }
}
