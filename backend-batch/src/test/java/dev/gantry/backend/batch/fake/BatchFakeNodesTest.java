package dev.gantry.backend.batch.fake;

import static dev.gantry.backend.batch.fake.FakeClient.inState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.backend.batch.internal.render.AutoscaleFormula;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Nodes and pools: autoscale, start tasks, resize errors, preemption, unusable nodes, removal, deletion. */
class BatchFakeNodesTest {
    private static final String IDENTITY = "/subscriptions/s/resourceGroups/g/providers/"
            + "Microsoft.ManagedIdentity/userAssignedIdentities/gantry";

    private final BatchFake fake = new BatchFake(new BatchFakeOptions()
            .autoscaleInterval(Duration.ofMillis(100))
            .nodeRetention(Duration.ofMillis(200)) // these tests watch pools shrink: no half-minute wait
            .poolDeletion(Duration.ofMillis(300))
            .blobs((url, identity) -> ("blob " + url + " as " + identity).getBytes(StandardCharsets.UTF_8)));
    private final FakeClient client = new FakeClient(fake);

    @AfterEach
    void close() {
        fake.close();
    }

    /** A pool that grows to two dedicated nodes while tasks wait or run, and shrinks to none after. */
    private static String pool(String id) {
        return pool(id, "$TargetDedicatedNodes");
    }

    /** A pool that grows to two nodes of this kind ($TargetDedicatedNodes or $TargetLowPriorityNodes). */
    private static String pool(String id, String target) {
        return FakeClient.pool(id, target + " = max($PendingTasks.GetSample(1)) > 0 ? 2 : 0;");
    }

    private void poolAndJob() throws Exception {
        poolAndJob(pool("p"));
    }

    private void poolAndJob(String pool) throws Exception {
        assertEquals(201, client.post("/pools", pool).status());
        assertEquals(201, client.post("/jobs", FakeClient.job("j", "p")).status());
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

    private String nodeState(String nodeId) {
        try {
            return client.get("/pools/p/nodes/" + nodeId).json().get("state").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anAutoscalePoolGrowsWhileTasksArePendingAndShrinksToZeroAfter() throws Exception {
        poolAndJob();
        assertEquals(0, fake.nodeIds("p").size(), "no task, no node");
        client.post("/jobs/j/tasks", FakeClient.task("t", "true"));
        client.waitForTask("j", "t", inState("completed"));
        eventually("the pool shrinks to zero", () -> fake.nodeIds("p").isEmpty());
        JsonNode pool = client.get("/pools/p").json();
        assertEquals(0, pool.get("currentDedicatedNodes").asInt());
        assertTrue(pool.get("autoScaleRun").get("results").asText().contains("$TargetDedicatedNodes=0"),
                pool.toString());
        FakeClient.Reply evaluated = client.post("/pools/p/evaluateautoscale",
                "{\"autoScaleFormula\":\"$TargetDedicatedNodes=1;\"}");
        assertEquals(200, evaluated.status(), evaluated.text());
        assertTrue(evaluated.json().get("results").asText().startsWith("$TargetDedicatedNodes="));
        assertEquals(400, client.post("/pools/p/enableautoscale",
                "{\"autoScaleEvaluationInterval\":\"PT1M\"}").status(), "Batch's minimum interval is 5 minutes");
    }

    @Test
    void gantrysOwnFormulaBringsANodeForAWaitingTaskAndTakesThePoolToZeroAfter() throws Exception {
        assertEquals(201, client.post("/pools", FakeClient.pool("g", AutoscaleFormula.render(false, 1, 4)))
                .status());
        client.post("/jobs", FakeClient.job("j", "g"));
        eventually("a first evaluation", () -> fake.pool("g").orElseThrow().has("autoScaleRun"));
        assertTrue(fake.nodeIds("g").isEmpty(), "nothing pending, no node");
        client.post("/jobs/j/tasks", FakeClient.task("t", "sleep 1"));
        client.waitForTask("j", "t", inState("running"));
        assertEquals(1, fake.nodeIds("g").size(), "one node for one task");
        JsonNode running = client.get("/pools/g").json();
        assertEquals(1, running.get("targetDedicatedNodes").asInt(), running.toString());
        client.waitForTask("j", "t", inState("completed"));
        eventually("the pool shrinks to zero", () -> fake.nodeIds("g").isEmpty());
        JsonNode idle = client.get("/pools/g").json();
        assertEquals(0, idle.get("targetDedicatedNodes").asInt());
        assertTrue(idle.get("autoScaleRun").get("results").asText().startsWith("$TargetDedicatedNodes=0;"
                + "$TargetLowPriorityNodes=0;$NodeDeallocationOption=taskcompletion;"), idle.toString());
    }

    @Test
    void anIdleNodeAndItsTasksFilesOutliveTheTaskUntilTheRetentionHasPassed() throws Exception {
        try (BatchFake kept = new BatchFake(new BatchFakeOptions().autoscaleInterval(Duration.ofMillis(100)))) {
            FakeClient keptClient = new FakeClient(kept);
            assertEquals(201, keptClient.post("/pools", pool("p")).status());
            keptClient.post("/jobs", FakeClient.job("j", "p"));
            keptClient.post("/jobs/j/tasks", FakeClient.task("t", "echo kept"));
            String node = keptClient.waitForTask("j", "t", inState("completed")).get("nodeInfo").get("nodeId")
                    .asText();
            Thread.sleep(500); // five evaluations that want no node, all well within the default retention
            JsonNode pool = keptClient.get("/pools/p").json();
            assertEquals(0, pool.get("targetDedicatedNodes").asInt(), pool.toString());
            assertEquals("resizing", pool.get("allocationState").asText(), "scale-in waits for the retention");
            assertTrue(kept.nodeIds("p").contains(node), "the idle node stays " + BatchFakeOptions
                    .DEFAULT_NODE_RETENTION + " after its task");
            assertEquals("kept\n", keptClient.get("/jobs/j/tasks/t/files/stdout.txt").text());
        }
    }

    @Test
    void aFormulaOutsideTheLanguageIsRefusedAndAFailedEvaluationIsReportedInBatchsShape() throws Exception {
        FakeClient.Reply refused = client.post("/pools", FakeClient.pool("bad", "$TargetDedicatedNodes = time();"));
        assertEquals(400, refused.status(), refused.text());
        assertEquals("AutoScalingFormulaSyntaxError", refused.json().get("code").asText());
        assertEquals("Message", refused.json().get("values").get(0).get("key").asText());
        assertTrue(refused.json().get("values").get(0).get("value").asText().startsWith("Line 1, Col "),
                refused.text());
        poolAndJob();
        FakeClient.Reply evaluated = client.post("/pools/p/evaluateautoscale", "{\"autoScaleFormula\":"
                + "\"$TargetDedicatedNodes = max($CPUPercent.GetSample(TimeInterval_Minute * 10, 50));\"}");
        assertEquals(200, evaluated.status(), evaluated.text());
        JsonNode error = evaluated.json().get("error");
        assertEquals("InsufficientSampleData", error.get("code").asText(), evaluated.text());
        assertEquals("Message", error.get("values").get(0).get("name").asText());
        assertTrue(evaluated.json().get("results").asText().startsWith("$TargetDedicatedNodes=0;"),
                evaluated.text());
    }

    @Test
    void aStaleResizeErrorBlocksNothingWhileABlockingOneKeepsNodesAway() throws Exception {
        poolAndJob();
        fake.resizeError("p", "AllocationFailed", "old news", false);
        client.post("/jobs/j/tasks", FakeClient.task("t", "true"));
        client.waitForTask("j", "t", inState("completed"));
        assertEquals("AllocationFailed", client.get("/pools/p").json().get("resizeErrors").get(0).get("code")
                .asText());
        eventually("the pool is empty", () -> fake.nodeIds("p").isEmpty());
        fake.resizeError("p", "AccountCoreQuotaReached", "no cores", true);
        client.post("/jobs/j/tasks", FakeClient.task("u", "true"));
        Thread.sleep(400);
        assertEquals("active", client.get("/jobs/j/tasks/u").json().get("state").asText());
        assertTrue(fake.nodeIds("p").isEmpty());
        assertEquals("resizing", client.get("/pools/p").json().get("allocationState").asText());
        fake.clearResizeErrors("p");
        client.waitForTask("j", "u", inState("completed"));
    }

    @Test
    void aFailingStartTaskLeavesNodesInStartTaskFailedAndTheTaskWaiting() throws Exception {
        assertEquals(201, client.post("/pools", pool("p").replace("\"taskSlotsPerNode\":1",
                "\"taskSlotsPerNode\":1,\"startTask\":{\"commandLine\":\"/bin/sh -c 'echo booted'\","
                        + "\"waitForSuccess\":true}")).status());
        client.post("/jobs", FakeClient.job("j", "p"));
        client.post("/jobs/j/tasks", FakeClient.task("t", "true"));
        client.waitForTask("j", "t", inState("completed"));
        String node = fake.nodeIds("p").get(0);
        assertEquals("booted\n", client.get("/pools/p/nodes/" + node + "/files/startup/stdout.txt").text());
        eventually("the pool is empty", () -> fake.nodeIds("p").isEmpty());
        fake.failStartTask("p");
        client.post("/jobs/j/tasks", FakeClient.task("u", "true"));
        eventually("a node fails its start task", () -> !fake.nodeIds("p").isEmpty()
                && nodeState(fake.nodeIds("p").get(0)).equals("starttaskfailed"));
        JsonNode failed = client.get("/pools/p/nodes/" + fake.nodeIds("p").get(0)).json();
        assertEquals(1, failed.get("startTaskInfo").get("exitCode").asInt());
        assertEquals("active", client.get("/jobs/j/tasks/u").json().get("state").asText());
        Thread.sleep(300);
        assertEquals(2, fake.nodeIds("p").size(), "failed nodes stay allocated; none are added past the target");
    }

    @Test
    void preemptingOneNodeOfAMultiInstanceTaskRequeuesTheWholeTask() throws Exception {
        poolAndJob(pool("p", "$TargetLowPriorityNodes")); // Batch preempts only Spot nodes
        client.post("/jobs/j/tasks", "{\"id\":\"mi\",\"commandLine\":\"sleep 30\",\"multiInstanceSettings\":"
                + "{\"numberOfInstances\":2,\"coordinationCommandLine\":\"true\"}}");
        client.waitForTask("j", "mi", inState("running"));
        String other = client.get("/jobs/j/tasks/mi/subtasksinfo").json().get("value").get(0).get("nodeInfo")
                .get("nodeId").asText();
        fake.preemptNode("p", other);
        FakeClient.assertRequeued(fake.task("j", "mi").orElseThrow(), other);
        assertEquals("preempted", nodeState(other));
        JsonNode again = client.waitForTask("j", "mi", inState("running"));
        assertFalse(client.get("/jobs/j/tasks/mi/subtasksinfo").json().toString().contains(other));
        assertEquals(0, again.get("executionInfo").get("requeueCount").asInt());
    }

    @Test
    void anUnusableNodeGivesUpItsTaskAndATerminateKillsWhatTheTaskLeftInTheBackground() throws Exception {
        poolAndJob();
        client.post("/jobs/j/tasks", FakeClient.task("bg", "sleep 300 & echo $! > child.pid; wait"));
        JsonNode running = client.waitForTask("j", "bg", inState("running"));
        String node = running.get("nodeInfo").get("nodeId").asText();
        Path pidFile = fake.root().resolve("nodes").resolve(node).resolve("workitems/j/job-1/bg/wd/child.pid");
        eventually("the child wrote its pid", () -> Files.exists(pidFile) && pidFile.toFile().length() > 0);
        long child = Long.parseLong(Files.readString(pidFile).strip());
        fake.makeNodeUnusable("p", node);
        assertEquals("unusable", nodeState(node));
        eventually("the background child is killed with its group",
                () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
        client.waitForTask("j", "bg", inState("running"));
        assertEquals(204, client.post("/jobs/j/tasks/bg/terminate", null).status());
        assertEquals(202, client.post("/jobs/j/terminate", "{\"terminateReason\":\"done\"}").status());
        assertEquals("completed", client.get("/jobs/j").json().get("state").asText());
    }

    @Test
    void removedNodesLeaveAndADeletedPoolIsBeingDeletedUntilItIsGone() throws Exception {
        poolAndJob();
        client.post("/jobs/j/tasks", FakeClient.task("t", "sleep 30"));
        String node = client.waitForTask("j", "t", inState("running")).get("nodeInfo").get("nodeId").asText();
        assertEquals(202, client.post("/pools/p/removenodes", "{\"nodeList\":[\"" + node + "\"]}").status());
        assertFalse(fake.nodeIds("p").contains(node));
        FakeClient.assertRequeued(fake.task("j", "t").orElseThrow(), node);
        assertEquals(202, client.send("DELETE", "/pools/p", null, null).status());
        FakeClient.Reply again = client.post("/pools", pool("p"));
        assertEquals(409, again.status());
        assertEquals("PoolBeingDeleted", again.json().get("code").asText());
        eventually("the pool is gone", () -> fake.pool("p").isEmpty());
        assertEquals(201, client.post("/pools", pool("p")).status());
    }

    @Test
    void resourceFilesWithAnIdentityAreFetchedOnlyForAPoolWithThatIdentity() throws Exception {
        poolAndJob();
        String file = "\"resourceFiles\":[{\"httpUrl\":\"https://acct.blob.core.windows.net/c/secret\","
                + "\"filePath\":\"in/secret\",\"fileMode\":\"0600\",\"identityReference\":{\"resourceId\":\""
                + IDENTITY + "\"}}]";
        client.post("/jobs/j/tasks", "{\"id\":\"denied\",\"commandLine\":\"cat in/secret\"," + file + "}");
        JsonNode denied = client.waitForTask("j", "denied", inState("completed"));
        assertEquals("BlobAccessDenied", denied.get("executionInfo").get("failureInfo").get("code").asText());
        fake.addPoolFromResourceManager(pool("withidentity"), java.util.List.of(IDENTITY));
        assertEquals(IDENTITY, client.get("/pools/withidentity").json().get("identity")
                .get("userAssignedIdentities").get(0).get("resourceId").asText());
        client.post("/jobs", FakeClient.job("k", "withidentity"));
        client.post("/jobs/k/tasks", "{\"id\":\"read\",\"commandLine\":\"cat in/secret\"," + file + "}");
        client.waitForTask("k", "read", inState("completed"));
        assertEquals("blob https://acct.blob.core.windows.net/c/secret as " + IDENTITY,
                client.get("/jobs/k/tasks/read/files/stdout.txt").text());
        IllegalStateException exists = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> fake.addPoolFromResourceManager(pool("WithIdentity"), java.util.List.of()));
        assertTrue(exists.getMessage().startsWith("PoolExists"), exists.getMessage());
    }

    @Test
    void exitConditionsAndRetriesShapeTheEnd() throws Exception {
        poolAndJob();
        client.post("/jobs/j/tasks", "{\"id\":\"soft\",\"commandLine\":\"exit 4\",\"exitConditions\":"
                + "{\"exitCodes\":[{\"code\":4,\"exitOptions\":{\"dependencyAction\":\"satisfy\"}}]}}");
        client.post("/jobs/j/tasks", "{\"id\":\"next\",\"commandLine\":\"true\",\"dependsOn\":"
                + "{\"taskIds\":[\"soft\"]}}");
        client.post("/jobs/j/tasks", "{\"id\":\"retried\",\"commandLine\":\"exit 2\",\"constraints\":"
                + "{\"maxTaskRetryCount\":2}}");
        assertEquals(0, client.waitForTask("j", "next", inState("completed")).get("executionInfo")
                .get("exitCode").asInt());
        client.post("/jobs/j/tasks", "{\"id\":\"slow\",\"commandLine\":\"sleep 30\",\"constraints\":"
                + "{\"maxWallClockTime\":\"PT0.5S\"}}");
        JsonNode ended = client.waitForTask("j", "slow", inState("completed"));
        assertEquals("TaskEnded", ended.get("executionInfo").get("failureInfo").get("code").asText());
        JsonNode retried = client.waitForTask("j", "retried", inState("completed"));
        assertEquals(2, retried.get("executionInfo").get("retryCount").asInt());
        assertEquals(2, retried.get("executionInfo").get("exitCode").asInt());
    }
}
