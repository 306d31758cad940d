package dev.gantry.backend.batch.fake;

import static dev.gantry.backend.batch.fake.FakeClient.inState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.azure.batch.BatchAccountId;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.BatchPoolSpec;
import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.azure.fakes.BlobFake;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One Batch account through both doors: pools put through Resource Manager (gantry-azure's {@link BatchManagement}
 * against {@link ArmFake}) with a user-assigned identity are the data plane's pools with that identity; a delete
 * through either door removes a pool from both (Resource Manager shows it {@code Deleting} until then); resource files naming the identity are read from the Blob service
 * fake only on a pool that has it.
 */
class ResourceManagerPoolsTest {
    private static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/batch/"
            + "providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";

    /** How long a deleted pool stays {@code deleting}: long enough to read it between the delete and its end. */
    private static final Duration DELETION = Duration.ofSeconds(1);

    private ArmFake arm;
    private BlobFake blobs;
    private BatchFake fake;
    private FakeClient client;
    private BatchManagement management;
    private BatchAccountId account;

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        blobs = new BlobFake();
        BatchAccountModel model = arm.batchAccount("batch", "gantryfake", "eastus",
                PoolAllocationMode.USER_SUBSCRIPTION);
        fake = new BatchFake(new BatchFakeOptions().auth(false, true).autoscaleInterval(Duration.ofMillis(100))
                .poolDeletion(DELETION).blobs(BlobSource.of(blobs)));
        fake.shareWith(model);
        client = new FakeClient(fake);
        management = new BatchManagement(arm.connector());
        account = BatchAccountId.parse(model.resourceId());
    }

    @AfterEach
    void stop() {
        fake.close();
        blobs.close();
        arm.close();
    }

    private static BatchPoolSpec spec() {
        return new BatchPoolSpec("Standard_D2s_v5", new BatchPoolSpec.Marketplace("canonical",
                "0001-com-ubuntu-server-jammy", "22_04-lts", "latest"), "batch.node.ubuntu 22.04", false, List.of(),
                true, 1, "$TargetDedicatedNodes = 1;", Duration.ofMinutes(5),
                Optional.of(new BatchPoolSpec.StartTask("/bin/sh -c 'echo booted'", Map.of("BOOT", "1"), true, true,
                        0)), Map.of("gantry.digest", "d1"), IDENTITY);
    }

    @Test
    void aPoolPutThroughResourceManagerIsTheDataPlanesPoolWithItsIdentity() throws Exception {
        management.createPool(account, "idpool", spec());
        JsonNode pool = client.get("/pools/idpool").json();
        assertEquals(IDENTITY, pool.get("identity").get("userAssignedIdentities").get(0).get("resourceId").asText());
        assertEquals("UserAssigned", pool.get("identity").get("type").asText());
        assertEquals("batch.node.ubuntu 22.04", pool.get("virtualMachineConfiguration").get("nodeAgentSKUId")
                .asText());
        assertEquals("22_04-lts", pool.get("virtualMachineConfiguration").get("imageReference").get("sku").asText());
        assertTrue(pool.get("enableAutoScale").asBoolean());
        assertEquals("$TargetDedicatedNodes = 1;", pool.get("autoScaleFormula").asText());
        assertEquals("PT5M", pool.get("autoScaleEvaluationInterval").asText());
        assertTrue(pool.get("enableInterNodeCommunication").asBoolean());
        assertEquals("simplified", pool.get("targetNodeCommunicationMode").asText());
        assertEquals("admin", pool.get("startTask").get("userIdentity").get("autoUser").get("elevationLevel")
                .asText());
        assertEquals("gantry.digest", pool.get("metadata").get(0).get("name").asText());
        eventually("a node boots", () -> !fake.nodeIds("idpool").isEmpty());

        client.post("/pools", FakeClient.pool("plain"));
        assertTrue(management.pool(account, "plain").isPresent(), "Resource Manager sees the data plane's pools");
    }

    @Test
    void aDeleteThroughEitherDoorRemovesThePoolFromBoth() throws Exception {
        management.createPool(account, "armdelete", spec());
        management.createPool(account, "planedelete", spec());
        assertTrue(management.deletePool(account, "armdelete"));
        assertEquals("Deleting", management.pool(account, "armdelete").orElseThrow().provisioningState(),
                "Resource Manager shows the pool going while Batch removes it");
        assertEquals("Deleting", management.createPool(account, "armdelete", spec()).provisioningState(),
                "a put meets the pool going, and reads it back as such");
        eventually("the data plane's pool goes", () -> fake.pool("armdelete").isEmpty());
        assertEquals(Optional.empty(), management.pool(account, "armdelete"), "then Resource Manager's too");
        assertEquals(202, client.send("DELETE", "/pools/planedelete", null, null).status());
        assertEquals("Deleting", management.pool(account, "planedelete").orElseThrow().provisioningState(),
                "deleted through the data plane, Resource Manager shows it going too");
        eventually("gone from both", () -> fake.pool("planedelete").isEmpty()
                && management.pool(account, "planedelete").isEmpty());
    }

    @Test
    void resourceFilesNamingTheIdentityAreReadFromTheBlobFakeOnlyOnAPoolThatHasIt() throws Exception {
        String container = blobs.createContainer("gantry-secrets");
        String url = blobs.blobs().put(container, "task.env", "TOKEN=s3cret\n".getBytes(StandardCharsets.UTF_8));
        management.createPool(account, "idpool", spec());
        client.post("/pools", FakeClient.pool("plain", FakeClient.ONE_NODE));
        client.post("/jobs", FakeClient.job("withidentity", "idpool"));
        client.post("/jobs", FakeClient.job("without", "plain"));
        String withIdentity = "{\"id\":\"read\",\"commandLine\":\"cat in/task.env\",\"resourceFiles\":[{\"httpUrl\":"
                + "\"" + url + "\",\"filePath\":\"in/task.env\",\"identityReference\":{\"resourceId\":\"" + IDENTITY
                + "\"}}]}";

        client.post("/jobs/withidentity/tasks", withIdentity);
        JsonNode read = client.waitForTask("withidentity", "read", inState("completed"));
        assertEquals(0, read.get("executionInfo").get("exitCode").asInt(), read.toString());
        assertEquals("TOKEN=s3cret\n", client.get("/jobs/withidentity/tasks/read/files/stdout.txt").text());

        client.post("/jobs/without/tasks", withIdentity);
        JsonNode denied = client.waitForTask("without", "read", inState("completed"));
        assertEquals("BlobAccessDenied", denied.get("executionInfo").get("failureInfo").get("code").asText());

        client.post("/jobs/withidentity/tasks", withIdentity.replace("\"id\":\"read\"", "\"id\":\"anonymous\"")
                .replaceFirst(",\"identityReference\":\\{[^}]*\\}", ""));
        JsonNode anonymous = client.waitForTask("withidentity", "anonymous", inState("completed"));
        assertTrue(anonymous.get("executionInfo").get("failureInfo").get("message").asText()
                .contains("PublicAccessNotPermitted"), anonymous.toString());
        assertFalse(client.get("/jobs/withidentity/tasks/anonymous/files/stdout.txt").text().contains("s3cret"));
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(20);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("never: " + what);
            }
            Thread.sleep(50);
        }
    }
}
