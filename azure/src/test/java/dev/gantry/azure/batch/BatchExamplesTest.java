package dev.gantry.azure.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The published Microsoft.Batch 2024-07-01 examples (test resources {@code azure-rest/batch/}, copied unchanged):
 * their responses read through {@link BatchManagement}, and {@code PoolCreate_UserAssignedIdentities}'s request
 * compared with the body Gantry writes for the same pool, then sent to the {@link ArmFake}, whose answer must hold
 * every field the example's answer holds.
 */
class BatchExamplesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    static JsonNode example(String name) throws IOException {
        try (InputStream in = BatchExamplesTest.class.getResourceAsStream(
                "/azure-rest/batch/2024-07-01/examples/" + name)) {
            return JSON.readTree(in);
        }
    }

    @Test
    void batchAccountGetReadsAsABatchManagedAccountWithItsQuotas() throws Exception {
        JsonNode example = example("BatchAccountGet.json");
        arm.replay("/batchAccounts/sampleacct", example.path("responses").path("200").path("body").toString());
        BatchAccount account = batch.account(new BatchAccountId(ArmFake.SUBSCRIPTION,
                "default-azurebatch-japaneast", "sampleacct"));
        assertEquals(PoolAllocationMode.BATCH_SERVICE, account.allocationMode());
        assertEquals("japaneast", account.region());
        assertEquals("sampleacct.japaneast.batch.azure.com", account.endpoint());
        assertEquals(OptionalInt.of(20), account.dedicatedCoreQuota());
        assertEquals(OptionalInt.of(20), account.lowPriorityCoreQuota());
        assertEquals(OptionalInt.of(20), account.poolQuota());
        assertEquals(OptionalInt.of(20), account.activeJobAndJobScheduleQuota());
        assertEquals(Map.of(), account.dedicatedCoreQuotaPerVmFamily());
    }

    @Test
    void theFakesAccountHoldsEveryFieldOfTheExamplesThatGantryReads() throws Exception {
        JsonNode published = example("BatchAccountGet.json").path("responses").path("200").path("body");
        BatchAccountModel model = arm.batchAccount("default-azurebatch-japaneast", "sampleacct", "japaneast",
                PoolAllocationMode.BATCH_SERVICE);
        model.dedicatedCoreQuota(20);
        model.lowPriorityCoreQuota(20);
        model.poolQuota(20);
        BatchAccount fromFake = batch.account(BatchAccountId.parse(model.resourceId()));
        arm.replay("/batchAccounts/replayed", published.toString());
        BatchAccount fromExample = batch.account(new BatchAccountId(ArmFake.SUBSCRIPTION,
                "default-azurebatch-japaneast", "replayed"));
        assertEquals(fromExample.allocationMode(), fromFake.allocationMode());
        assertEquals(fromExample.region(), fromFake.region());
        assertEquals(fromExample.endpoint(), fromFake.endpoint());
        assertEquals(fromExample.dedicatedCoreQuota(), fromFake.dedicatedCoreQuota());
        assertEquals(fromExample.lowPriorityCoreQuota(), fromFake.lowPriorityCoreQuota());
        assertEquals(fromExample.poolQuota(), fromFake.poolQuota());
    }

    @Test
    void listSupportedVirtualMachineSkusReadsFamiliesCapabilitiesAndEndOfLife() throws Exception {
        JsonNode example = example("LocationListVirtualMachineSkus.json");
        arm.replay("/locations/japaneast/virtualMachineSkus",
                example.path("responses").path("200").path("body").toString());
        List<BatchVmSku> skus = batch.virtualMachineSkus(ArmFake.SUBSCRIPTION, "japaneast");
        assertEquals(List.of("Standard_D1_v2", "Standard_A1"), skus.stream().map(BatchVmSku::name).toList());
        assertEquals("standardDFamily", skus.get(0).familyName());
        assertEquals(OptionalInt.of(1), skus.get(0).vCpus());
        assertFalse(skus.get(0).lowPriorityCapable());
        assertEquals(Optional.empty(), skus.get(0).batchSupportEndOfLife());
        assertEquals(Optional.of(Instant.parse("2024-08-31T00:00:00Z")), skus.get(1).batchSupportEndOfLife());
        assertEquals("IaaS,PaaS", skus.get(1).capabilities().get("VMDeploymentTypes"));
    }

    @Test
    void gantrysPoolBodyIsTheExamplesRequestPlusWhatGantryAlwaysSets() throws Exception {
        JsonNode request = example("PoolCreate_UserAssignedIdentities.json").path("parameters").path("parameters");
        String firstIdentity = request.path("identity").path("userAssignedIdentities").fieldNames().next();
        ObjectNode ours = ArmPoolBody.of(sameAsTheExample(firstIdentity));

        ObjectNode expected = request.deepCopy();
        ObjectNode identities = (ObjectNode) expected.path("identity").path("userAssignedIdentities");
        identities.retain(firstIdentity);
        ((ObjectNode) expected.path("properties")).put("interNodeCommunication", "Disabled").put("taskSlotsPerNode", 1)
                .put("targetNodeCommunicationMode", "Simplified");
        assertEquals(expected, ours);
    }

    @Test
    void theFakeAnswersAPoolPutWithEveryFieldOfTheExamplesAnswer() throws Exception {
        JsonNode example = example("PoolCreate_UserAssignedIdentities.json");
        JsonNode published = example.path("responses").path("200").path("body");
        BatchAccountModel model = arm.batchAccount("default-azurebatch-japaneast", "sampleacct", "japaneast",
                PoolAllocationMode.USER_SUBSCRIPTION);
        String identity = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/default-azurebatch-japaneast"
                + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/id1";
        BatchPool created = batch.createPool(BatchAccountId.parse(model.resourceId()), "testpool",
                sameAsTheExample(identity));
        JsonNode answered = model.armPool("testpool").orElseThrow();
        assertTrue(fields(answered).containsAll(fields(published)),
                "missing: " + missing(fields(published), fields(answered)));
        assertTrue(fields(answered.path("properties")).containsAll(fields(published.path("properties"))),
                "missing: " + missing(fields(published.path("properties")), fields(answered.path("properties"))));
        JsonNode assigned = answered.path("identity").path("userAssignedIdentities").path(identity);
        assertTrue(assigned.has("principalId") && assigned.has("clientId"), assigned.toString());

        BatchPool fromExample = BatchManagement.pool(published);
        assertEquals(fromExample.vmSize(), created.vmSize());
        assertEquals(fromExample.provisioningState(), created.provisioningState());
        assertEquals(2, fromExample.identities().size());
    }

    private static BatchPoolSpec sameAsTheExample(String identity) {
        return new BatchPoolSpec("STANDARD_D4", new BatchPoolSpec.Marketplace("Canonical", "UbuntuServer", "18.04-LTS",
                "latest"), "batch.node.ubuntu 18.04", false, List.of(), false, 1, "$TargetDedicatedNodes=1",
                Duration.ofMinutes(5), Optional.empty(), Map.of(), identity);
    }

    private static TreeSet<String> fields(JsonNode node) {
        TreeSet<String> names = new TreeSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static List<String> missing(TreeSet<String> wanted, TreeSet<String> had) {
        List<String> missing = new ArrayList<>(wanted);
        missing.removeAll(had);
        return missing;
    }
}
