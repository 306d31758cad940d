package dev.gantry.backend.batch.internal.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.FakeAccounts;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchCapabilitiesTest {
    private final ArmFake arm = new ArmFake();
    private final BatchManagement management = new BatchManagement(arm.connector());

    BatchCapabilitiesTest() throws Exception {
    }

    @AfterEach
    void close() {
        arm.close();
    }

    private AccountFacts facts(BatchAuth auth, Optional<PoolAllocationMode> mode) {
        Optional<String> resourceId = mode.map(m -> arm.batchAccount("ml", "acct" + m.ordinal(), "eastus", m)
                .resourceId());
        BatchAccountSettings account = new BatchAccountSettings(URI.create("https://acct.eastus.batch.azure.com"),
                FakeAccounts.REGION, auth, Optional.empty(), resourceId);
        return AccountFacts.read(account, Optional.of(management));
    }

    @Test
    void everythingButSpotIsOnForAnyAccount() {
        Capabilities capabilities = BatchCapabilities.of(List.of(facts(BatchAuth.SHARED_KEY, Optional.empty())));
        assertTrue(capabilities.multiNode());
        assertTrue(capabilities.containers());
        assertTrue(capabilities.nativeDependencies());
        assertTrue(capabilities.followLogs());
        assertEquals(Set.of(GpuVendor.NVIDIA, GpuVendor.AMD), capabilities.gpuVendors());
        assertEquals(EvictionHandling.REQUEUES, capabilities.evictions());
        assertFalse(capabilities.mergedLogs());
        assertTrue(capabilities.placesByRegion());
        assertFalse(capabilities.spot(), "a shared-key account is Batch-managed: no Spot since 30 September 2025");
    }

    @Test
    void spotOnlyForEntraAndUserSubscriptionReadFromResourceManager() {
        AccountFacts user = facts(BatchAuth.ENTRA, Optional.of(PoolAllocationMode.USER_SUBSCRIPTION));
        AccountFacts managed = facts(BatchAuth.ENTRA, Optional.of(PoolAllocationMode.BATCH_SERVICE));
        AccountFacts unknown = facts(BatchAuth.ENTRA, Optional.empty());
        AccountFacts sharedKey = facts(BatchAuth.SHARED_KEY, Optional.empty());

        assertTrue(user.canHaveSpot());
        assertEquals(Optional.empty(), user.whyNoSpot());
        assertEquals(Optional.of(AccountFacts.Allocation.USER_SUBSCRIPTION), user.allocationMode());
        assertTrue(BatchCapabilities.of(List.of(sharedKey, user)).spot(), "one account that can is enough");
        assertEquals(1, arm.requests("GET", user.settings().resourceId().orElseThrow()).size(),
                "the mode is read from Resource Manager");

        assertFalse(managed.canHaveSpot());
        assertTrue(managed.whyNoSpot().orElseThrow().contains("BatchService pool allocation mode"));
        assertFalse(unknown.canHaveSpot());
        assertTrue(unknown.whyNoSpot().orElseThrow().contains("has no resourceId"), unknown.whyNoSpot().get());
        assertTrue(sharedKey.whyNoSpot().orElseThrow().contains("30 September 2025"));
        assertFalse(BatchCapabilities.of(List.of(managed, unknown, sharedKey)).spot());
    }
}
