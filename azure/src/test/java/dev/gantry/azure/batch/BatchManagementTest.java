package dev.gantry.azure.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Batch management through Resource Manager, against ArmFake's Microsoft.Batch routes. */
class BatchManagementTest {
    private static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/batch/providers/"
            + "Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";

    private ArmFake arm;
    private BatchManagement batch;

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        batch = new BatchManagement(arm.connector());
    }

    @AfterEach
    void stop() {
        arm.close();
    }

    static BatchPoolSpec spec(Map<String, String> metadata) {
        return new BatchPoolSpec("Standard_NC24ads_A100_v4",
                new BatchPoolSpec.Marketplace("microsoft-dsvm", "ubuntu-hpc", "2204", "latest"),
                "batch.node.ubuntu 22.04", true, List.of("ghcr.io/acme/train:1"), true, 1,
                "$TargetLowPriorityNodes = 0;", Duration.ofMinutes(5),
                Optional.of(new BatchPoolSpec.StartTask("/bin/sh -c 'true'", Map.of("GANTRY_BOOT", "1"), true, true,
                        0)),
                metadata, IDENTITY);
    }

    @Test
    void aBatchManagedAccountReportsItsModeAndCoreQuotas() {
        BatchAccountModel model = arm.batchAccount("batch", "gantrytest", "westeurope",
                PoolAllocationMode.BATCH_SERVICE);
        model.dedicatedCoreQuota(96);
        model.lowPriorityCoreQuota(48);
        model.familyQuota("standardNCADSA100v4Family", 24);
        BatchAccount account = batch.account(BatchAccountId.parse(model.resourceId()));
        assertEquals(PoolAllocationMode.BATCH_SERVICE, account.allocationMode());
        assertEquals("westeurope", account.region());
        assertEquals("gantrytest.westeurope.batch.azure.com", account.endpoint());
        assertEquals(OptionalInt.of(96), account.dedicatedCoreQuota());
        assertEquals(OptionalInt.of(48), account.lowPriorityCoreQuota());
        assertEquals(Map.of("standardNCADSA100v4Family", 24), account.dedicatedCoreQuotaPerVmFamily());
        assertTrue(account.perVmFamilyQuotaEnforced());
        assertEquals("2024-07-01", arm.requests("GET", "/batchAccounts/gantrytest").get(0).query().get("api-version"));
    }

    @Test
    void aUserSubscriptionAccountHasNoCoreQuotasOfItsOwn() {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        BatchAccount account = batch.account(BatchAccountId.parse(model.resourceId()));
        assertEquals(PoolAllocationMode.USER_SUBSCRIPTION, account.allocationMode());
        assertEquals(OptionalInt.empty(), account.dedicatedCoreQuota());
        assertEquals(OptionalInt.empty(), account.lowPriorityCoreQuota());
    }

    @Test
    void aPoolIsPutWithItsIdentityInResourceManagersShape() {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        List<String> heard = new ArrayList<>();
        model.addPoolListener(new BatchAccountModel.PoolListener() {
            @Override
            public void put(String poolName, JsonNode armPool) {
                heard.add("put " + poolName + " " + armPool.path("identity").path("userAssignedIdentities")
                        .fieldNames().next());
            }

            @Override
            public void deleted(String poolName) {
                heard.add("deleted " + poolName);
            }
        });
        BatchAccountId id = BatchAccountId.parse(model.resourceId());
        BatchPool pool = batch.createPool(id, "gantry-a100-x1", spec(Map.of("gantry.digest", "d1")));
        assertEquals("gantry-a100-x1", pool.name());
        assertEquals(List.of(IDENTITY), pool.identities());
        assertEquals(Map.of("gantry.digest", "d1"), pool.metadata());
        assertEquals("Succeeded", pool.provisioningState());
        assertEquals(List.of("put gantry-a100-x1 " + IDENTITY), heard);

        ArmFake.Request put = arm.requests("PUT", "/pools/gantry-a100-x1").get(0);
        assertEquals("*", put.headers().get("if-none-match"));
        JsonNode machine = put.body().path("properties").path("deploymentConfiguration")
                .path("virtualMachineConfiguration");
        assertEquals("ubuntu-hpc", machine.path("imageReference").path("offer").asText());
        assertEquals("DockerCompatible", machine.path("containerConfiguration").path("type").asText());
        assertEquals("PT5M", put.body().path("properties").path("scaleSettings").path("autoScale")
                .path("evaluationInterval").asText());
        assertEquals("Enabled", put.body().path("properties").path("interNodeCommunication").asText());
        assertEquals("Simplified", put.body().path("properties").path("targetNodeCommunicationMode").asText());
        assertEquals("Admin", put.body().path("properties").path("startTask").path("userIdentity").path("autoUser")
                .path("elevationLevel").asText());

        assertTrue(batch.deletePool(id, "gantry-a100-x1"));
        assertEquals(Optional.empty(), batch.pool(id, "gantry-a100-x1"));
        assertFalse(batch.deletePool(id, "gantry-a100-x1"), "already gone: nothing to do");
        assertEquals("deleted gantry-a100-x1", heard.get(1));
    }

    @Test
    void aPoolThatAlreadyExistsIsReadBackNeverOverwritten() {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        BatchAccountId id = BatchAccountId.parse(model.resourceId());
        batch.createPool(id, "gantry-a100-x1", spec(Map.of("gantry.digest", "first")));
        BatchPool again = batch.createPool(id, "GANTRY-A100-X1", spec(Map.of("gantry.digest", "second")));
        assertEquals(Map.of("gantry.digest", "first"), again.metadata(), "the caller compares the digest");
        assertEquals(List.of("gantry-a100-x1"), model.armPoolNames());
    }

    /**
     * A user-subscription account whose data plane holds pool gantry-a100-x1 on the looks (0, 1, 2, ... in the order
     * Resource Manager's fake asks) that {@code held} accepts: a pool that Batch removes between two calls.
     */
    private BatchAccountModel accountWhosePoolIsSeenOnLooks(java.util.function.IntPredicate held) {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
        model.dataPlanePools(() -> held.test(looks.getAndIncrement()) ? Set.of("gantry-a100-x1") : Set.of());
        return model;
    }

    /** The PUT met a pool on its way out, gone by the time it is read: the PUT is sent again and makes the pool. */
    @Test
    void aPoolDeletedBetweenThePutAndTheReadIsCreatedAgain() {
        // The data plane still holds the pool when the first PUT looks, and has removed it by the read after.
        BatchAccountModel model = accountWhosePoolIsSeenOnLooks(look -> look == 0);
        BatchAccountId id = BatchAccountId.parse(model.resourceId());

        BatchPool pool = batch.createPool(id, "gantry-a100-x1", spec(Map.of("gantry.digest", "mine")));

        assertEquals(Map.of("gantry.digest", "mine"), pool.metadata());
        assertEquals(2, arm.requests("PUT", "/pools/gantry-a100-x1").size(), "the PUT, 412, then the PUT again");
        assertEquals(1, arm.requests("GET", "/pools/gantry-a100-x1").size(), "the read between them found none");
        assertEquals(List.of("gantry-a100-x1"), model.armPoolNames());
    }

    @Test
    void aPoolThatKeepsVanishingBetweenThePutAndTheReadIsAnErrorAfterThreePuts() {
        // Every PUT meets the pool (odd looks); every read after finds none (even looks).
        BatchAccountId id = BatchAccountId.parse(accountWhosePoolIsSeenOnLooks(look -> look % 2 == 0).resourceId());

        GantryException e = assertThrows(GantryException.class, () -> batch.createPool(id, "gantry-a100-x1",
                spec(Map.of())));

        assertTrue(e.getMessage().contains("412") && e.getMessage().contains("gantry-a100-x1"), e.getMessage());
        assertEquals(BatchManagement.CREATE_ATTEMPTS, arm.requests("PUT", "/pools/gantry-a100-x1").size());
    }

    @Test
    void aPoolTheDataPlaneMadeIsSeenAndDeletedThroughResourceManager() {
        BatchAccountModel model = arm.batchAccount("batch", "gantrytest", "westeurope",
                PoolAllocationMode.BATCH_SERVICE);
        model.dataPlanePools(() -> Set.of("gantry-d4-x1"));
        List<String> deleted = new ArrayList<>();
        model.addPoolListener(new BatchAccountModel.PoolListener() {
            @Override
            public void put(String poolName, JsonNode armPool) {
            }

            @Override
            public void deleted(String poolName) {
                deleted.add(poolName);
            }
        });
        BatchAccountId id = BatchAccountId.parse(model.resourceId());
        assertTrue(batch.pool(id, "gantry-d4-x1").isPresent());
        assertTrue(batch.deletePool(id, "gantry-d4-x1"));
        assertEquals(List.of("gantry-d4-x1"), deleted);
    }

    @Test
    void anAccountThatDoesNotExistIsAnErrorNotAMissingPool() {
        BatchAccountId id = new BatchAccountId(ArmFake.SUBSCRIPTION, "batch", "nosuch");
        arm.batchAccount("batch", "other", "westeurope", PoolAllocationMode.BATCH_SERVICE);
        GantryException e = assertThrows(GantryException.class, () -> batch.pool(id, "gantry-d4-x1"));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("ParentResourceNotFound"), e.getMessage());
    }

    @Test
    void aPoolWriteTheIdentityMayNotDoNamesTheRolesItNeeds() {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        arm.denyWrites("/pools/gantry-a100-x1");
        GantryException e = assertThrows(GantryException.class, () -> batch.createPool(
                BatchAccountId.parse(model.resourceId()), "gantry-a100-x1", spec(Map.of())));
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("Managed Identity Operator"), e.getMessage());
    }

    @Test
    void aPoolBodyTheResourceProviderRefusesIsReportedWithItsReason() {
        BatchAccountModel model = arm.batchAccount("batch", "gantryus", "westeurope",
                PoolAllocationMode.USER_SUBSCRIPTION);
        BatchPoolSpec tooEager = new BatchPoolSpec("Standard_D4s_v5",
                new BatchPoolSpec.Gallery("/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/galleries/"
                        + "gal/images/img/versions/1.0.0"), "batch.node.ubuntu 22.04", false, List.of(), false, 1,
                "$TargetDedicatedNodes = 0;", Duration.ofMinutes(1), Optional.empty(), Map.of(), IDENTITY);
        GantryException e = assertThrows(GantryException.class, () -> batch.createPool(
                BatchAccountId.parse(model.resourceId()), "gantry-d4-x1", tooEager));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("InvalidRequestBody") && e.getMessage().contains("PT5M"), e.getMessage());
    }

    @Test
    void theVmSizesBatchSupportsAreReadToTheLastPage() {
        arm.batchVmSkus("westeurope", ArmFake.batchVmSku("Standard_D4s_v5", "standardDSv5Family", 4, true),
                ArmFake.batchVmSku("Standard_D8s_v5", "standardDSv5Family", 8, true),
                ArmFake.batchVmSku("Standard_NC24ads_A100_v4", "standardNCADSA100v4Family", 24, true),
                ArmFake.batchVmSku("Standard_A1", "standardA0_A7Family", 1, false),
                ArmFake.batchVmSku("Standard_ND96isr_H100_v5", "standardNDSH100v5Family", 96, false));
        List<BatchVmSku> skus = batch.virtualMachineSkus(ArmFake.SUBSCRIPTION, "westeurope");
        assertEquals(5, skus.size());
        assertEquals(OptionalInt.of(24), skus.get(2).vCpus());
        assertTrue(skus.get(2).lowPriorityCapable());
        assertFalse(skus.get(3).lowPriorityCapable());
        assertEquals(3, arm.requests("GET", "/virtualMachineSkus").size(), "two sizes a page, nextLink followed");
    }

    @Test
    void aResourceIdThatIsNotABatchAccountSaysWhatOneLooksLike() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchAccountId.parse("/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/vms/x"));
        assertTrue(e.getMessage().contains("Microsoft.Batch/batchAccounts/NAME")
                && e.getMessage().contains("az batch account show"), e.getMessage());
    }
}
