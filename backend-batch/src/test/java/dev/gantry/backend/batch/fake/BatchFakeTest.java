package dev.gantry.backend.batch.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.backend.batch.fake.nodes.NodeNetwork;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchFakeTest {
    private static final String POOL = FakeClient.pool("pool-1");
    private static final String JOB = FakeClient.job("job-1", "pool-1");

    private final BatchFake fake = new BatchFake(new BatchFakeOptions()
            .autoscaleInterval(Duration.ofMillis(100))
            .activeJobQuota(2));
    private final FakeClient client = new FakeClient(fake);

    @AfterEach
    void close() {
        fake.close();
    }

    private void poolAndJob() throws Exception {
        poolAndJob(POOL);
    }

    private void poolAndJob(String pool) throws Exception {
        assertEquals(201, client.post("/pools", pool).status());
        assertEquals(201, client.post("/jobs", JOB).status());
    }

    private JsonNode waitForTask(String taskId, Predicate<JsonNode> condition) throws Exception {
        return client.waitForTask("job-1", taskId, condition);
    }

    private static String task(String id, String commandLine) {
        return FakeClient.task(id, commandLine);
    }

    @Test
    void aTaskRunsAsAProcessOnItsNodeWithBatchsEnvironmentAndItsOutputInTheTaskFiles() throws Exception {
        poolAndJob();
        String body = "{\"id\":\"t1\",\"commandLine\":\"/bin/sh -c 'echo out $GREETING $AZ_BATCH_TASK_ID "
                + "$AZ_BATCH_JOB_ID $AZ_BATCH_POOL_ID; echo err >&2; exit 3'\",\"environmentSettings\":"
                + "[{\"name\":\"GREETING\",\"value\":\"hi there\"}]}";
        assertEquals(201, client.post("/jobs/job-1/tasks", body).status());
        JsonNode task = waitForTask("t1", t -> t.get("state").asText().equals("completed"));
        JsonNode execution = task.get("executionInfo");
        assertEquals(3, execution.get("exitCode").asInt());
        assertEquals("failure", execution.get("result").asText());
        assertEquals("FailureExitCode", execution.get("failureInfo").get("code").asText());
        assertEquals("running", task.get("previousState").asText());
        assertTrue(execution.has("startTime") && execution.has("endTime"), execution.toString());
        assertEquals(0, execution.get("retryCount").asInt());
        FakeClient.Reply stdout = client.get("/jobs/job-1/tasks/t1/files/stdout.txt");
        assertEquals("out hi there t1 job-1 pool-1\n", stdout.text());
        assertEquals("err\n", client.get("/jobs/job-1/tasks/t1/files/stderr.txt").text());
        FakeClient.Reply range = client.send("GET", "/jobs/job-1/tasks/t1/files/stdout.txt", null, "bytes=4-5");
        assertEquals("hi", range.text());
        FakeClient.Reply head = client.send("HEAD", "/jobs/job-1/tasks/t1/files/stdout.txt", null, null);
        assertEquals("29", head.raw().headers().firstValue("Content-Length").orElseThrow());
        FakeClient.Reply beyond = client.send("GET", "/jobs/job-1/tasks/t1/files/stdout.txt", null, "bytes=100-");
        assertEquals(416, beyond.status());
        assertEquals("InvalidRange", beyond.json().get("code").asText());
    }

    @Test
    void aTaskCollectionAnswersEachTaskAndRefusesIdsThatDifferOnlyInCase() throws Exception {
        poolAndJob();
        FakeClient.Reply first = client.post("/jobs/job-1/addtaskcollection",
                "{\"value\":[" + task("Alpha", "true") + "," + task("beta", "true") + "]}");
        assertEquals(200, first.status());
        assertEquals("success", first.json().get("value").get(0).get("status").asText());
        FakeClient.Reply again = client.post("/jobs/job-1/addtaskcollection",
                "{\"value\":[" + task("alpha", "true") + "," + task("gamma", "true") + "]}");
        JsonNode results = again.json().get("value");
        assertEquals("clienterror", results.get(0).get("status").asText());
        assertEquals("TaskExists", results.get(0).get("error").get("code").asText());
        assertEquals("en-US", results.get(0).get("error").get("message").get("lang").asText());
        assertEquals("success", results.get(1).get("status").asText());
        StringBuilder many = new StringBuilder("{\"value\":[");
        for (int i = 0; i < 101; i++) {
            many.append(i == 0 ? "" : ",").append(task("m" + i, "true"));
        }
        FakeClient.Reply tooMany = client.post("/jobs/job-1/addtaskcollection", many + "]}");
        assertEquals(400, tooMany.status());
        assertEquals("InvalidPropertyValue", tooMany.json().get("code").asText());
        String large = "x".repeat(1024 * 1024);
        FakeClient.Reply tooLarge = client.post("/jobs/job-1/addtaskcollection",
                "{\"value\":[" + task("big", large) + "]}");
        assertEquals(413, tooLarge.status());
        assertEquals("RequestBodyTooLarge", tooLarge.json().get("code").asText());
    }

    @Test
    void badBodiesGetBatchsErrorsNamingTheProperty() throws Exception {
        poolAndJob();
        FakeClient.Reply typo = client.post("/jobs/job-1/tasks",
                "{\"id\":\"t\",\"commandLine\":\"true\",\"enviromentSettings\":[]}");
        assertEquals(400, typo.status());
        assertTrue(typo.text().contains("enviromentSettings"), typo.text());
        FakeClient.Reply missing = client.post("/jobs/job-1/tasks", "{\"id\":\"t\"}");
        assertEquals("MissingRequiredProperty", missing.json().get("code").asText());
        assertEquals("commandLine", missing.json().get("values").get(0).get("value").asText());
        FakeClient.Reply wrong = client.post("/jobs/job-1/tasks",
                "{\"id\":\"t\",\"commandLine\":\"true\",\"requiredSlots\":\"one\"}");
        assertEquals("InvalidPropertyValue", wrong.json().get("code").asText());
        FakeClient.Reply longId = client.post("/jobs/job-1/tasks", task("x".repeat(65), "true"));
        assertEquals("InvalidPropertyValue", longId.json().get("code").asText());
        assertEquals(404, client.post("/jobs/nope/tasks", task("t", "true")).json().get("code").asText()
                .equals("JobNotFound") ? 404 : -1);
        assertEquals("TaskNotFound", client.get("/jobs/job-1/tasks/nope").json().get("code").asText());
        assertEquals("PoolExists", client.post("/pools", POOL.replace("pool-1", "POOL-1")).json().get("code")
                .asText());
        assertEquals("JobExists", client.post("/jobs", JOB).json().get("code").asText());
        assertEquals(201, client.post("/jobs", JOB.replace("job-1", "job-2")).status());
        FakeClient.Reply quota = client.post("/jobs", JOB.replace("job-1", "job-3"));
        assertEquals(409, quota.status());
        assertEquals("ActiveJobAndScheduleQuotaReached", quota.json().get("code").asText());
        client.post("/jobs", JOB.replace("job-1", "plain").replace("\"usesTaskDependencies\":true,", ""));
    }

    @Test
    void dependenciesNeedTheJobsFlagAndABlockedDependentWaitsForEver() throws Exception {
        poolAndJob();
        client.post("/jobs/job-2", "{}");
        assertEquals(201, client.post("/jobs/job-1/tasks", task("fails", "exit 1")).status());
        assertEquals(201, client.post("/jobs/job-1/tasks", "{\"id\":\"after\",\"commandLine\":\"true\","
                + "\"dependsOn\":{\"taskIds\":[\"fails\"]}}").status());
        waitForTask("fails", t -> t.get("state").asText().equals("completed"));
        Thread.sleep(300);
        assertEquals("active", client.get("/jobs/job-1/tasks/after").json().get("state").asText());
        String longList = "[" + "\"" + "d".repeat(64) + "\",".repeat(0);
        StringBuilder ids = new StringBuilder("[");
        for (int i = 0; i < 1001; i++) {
            ids.append(i == 0 ? "" : ",").append("\"").append(String.format("%064d", i)).append("\"");
        }
        FakeClient.Reply tooLong = client.post("/jobs/job-1/tasks", "{\"id\":\"x\",\"commandLine\":\"true\","
                + "\"dependsOn\":{\"taskIds\":" + ids + "]}}");
        assertEquals("TaskDependencyListTooLong", tooLong.json().get("code").asText(), longList);
        client.post("/jobs", JOB.replace("job-1", "nodeps").replace("true", "false"));
        FakeClient.Reply notOnJob = client.post("/jobs/nodeps/tasks", "{\"id\":\"x\",\"commandLine\":\"true\","
                + "\"dependsOn\":{\"taskIds\":[\"a\"]}}");
        assertEquals("TaskDependenciesNotSpecifiedOnJob", notOnJob.json().get("code").asText());
    }

    @Test
    void listsFilterSelectAndPageWithALinkThatCarriesItsQuery() throws Exception {
        poolAndJob();
        for (int i = 0; i < 5; i++) {
            client.post("/jobs/job-1/tasks", task("t" + i, "sleep 30"));
        }
        String filter = URLEncoder.encode("stateTransitionTime ge datetime'2020-01-01T00:00:00Z' and "
                + "(state eq 'active' or state eq 'preparing' or state eq 'running')", StandardCharsets.UTF_8);
        FakeClient.Reply page = client.get("/jobs/job-1/tasks?$select=id,state&maxresults=2&$filter=" + filter);
        assertEquals(200, page.status(), page.text());
        assertEquals(2, page.json().get("value").size());
        assertEquals(2, page.json().get("value").get(0).size(), "only the selected properties");
        int seen = 2;
        String next = page.json().get("odata.nextLink").asText();
        while (next != null) {
            FakeClient.Reply following = client.get(next);
            seen += following.json().get("value").size();
            next = following.json().has("odata.nextLink") ? following.json().get("odata.nextLink").asText() : null;
        }
        assertEquals(5, seen);
        FakeClient.Reply bad = client.get("/jobs/job-1/tasks?$filter=" + URLEncoder.encode("commandLine eq 'x'",
                StandardCharsets.UTF_8));
        assertEquals(400, bad.status());
        assertEquals("InvalidQueryParameterValue", bad.json().get("code").asText());
        assertEquals(400, client.get("/jobs/job-1/tasks?maxresults=1001").status());
        FakeClient.Reply noNe = client.get("/jobs/job-1/tasks?$filter=" + URLEncoder.encode(
                "executionInfo/exitCode ne 0", StandardCharsets.UTF_8));
        assertEquals(400, noNe.status(), "the published table gives exitCode no 'ne'");
        assertEquals(200, client.get("/jobs/job-1/tasks?$filter=" + URLEncoder.encode(
                "(executionInfo/exitCode lt 0) or (executionInfo/exitCode gt 0)", StandardCharsets.UTF_8)).status());
        FakeClient.Reply version = client.get("/jobs/job-1/tasks?api-version=2099-01-01.1.0");
        assertEquals(400, version.status());
        assertTrue(version.text().contains("2099-01-01.1.0"), version.text());
        FakeClient.Reply nodes = client.get("/pools/pool-1/nodes?$filter=" + URLEncoder.encode(
                "state eq 'preempted'", StandardCharsets.UTF_8));
        assertEquals(0, nodes.json().get("value").size());
    }

    @Test
    void aPreemptedNodesTaskRunsAgainElsewhereWithItsCountsUnchanged() throws Exception {
        poolAndJob(FakeClient.pool("pool-1", FakeClient.TWO_SPOT_NODES)); // Batch preempts only Spot nodes
        client.post("/jobs/job-1/tasks", task("long", "sleep 30"));
        JsonNode running = waitForTask("long", t -> t.get("state").asText().equals("running"));
        String node = running.get("nodeInfo").get("nodeId").asText();
        fake.preemptNode("pool-1", node);
        FakeClient.assertRequeued(fake.task("job-1", "long").orElseThrow(), node);
        JsonNode again = waitForTask("long", t -> t.get("state").asText().equals("running"));
        assertFalse(node.equals(again.get("nodeInfo").get("nodeId").asText()));
        assertEquals(0, again.get("executionInfo").get("retryCount").asInt());
        assertEquals(0, again.get("executionInfo").get("requeueCount").asInt());
        JsonNode preempted = client.get("/pools/pool-1/nodes?$filter=" + URLEncoder.encode("state eq 'preempted'",
                StandardCharsets.UTF_8)).json().get("value");
        assertEquals(node, preempted.get(0).get("id").asText());
        assertEquals(204, client.post("/jobs/job-1/tasks/long/terminate", null).status());
        JsonNode ended = client.get("/jobs/job-1/tasks/long").json();
        assertEquals("TaskEnded", ended.get("executionInfo").get("failureInfo").get("code").asText());
        assertEquals("TaskCompleted", client.post("/jobs/job-1/tasks/long/terminate", null).json().get("code")
                .asText());
    }

    @Test
    void aMultiInstanceTaskCoordinatesOnEveryNodeThenRunsThePrimary() throws Exception {
        poolAndJob();
        client.post("/jobs/job-1/tasks", "{\"id\":\"mpi\",\"commandLine\":\"echo primary "
                + "$AZ_BATCH_IS_CURRENT_NODE_MASTER $AZ_BATCH_HOST_LIST\",\"multiInstanceSettings\":"
                + "{\"numberOfInstances\":2,\"coordinationCommandLine\":\"echo coord $AZ_BATCH_MASTER_NODE"
                + " $(hostname -i)\"}}");
        JsonNode done = waitForTask("mpi", t -> t.get("state").asText().equals("completed"));
        assertEquals(0, done.get("executionInfo").get("exitCode").asInt());
        // Each node at its own address (its namespace's), which hostname -i answers on it.
        String master = address(done.get("nodeInfo").get("nodeId").asText());
        JsonNode subtasks = client.get("/jobs/job-1/tasks/mpi/subtasksinfo").json().get("value");
        assertEquals(1, subtasks.size());
        assertEquals("completed", subtasks.get(0).get("state").asText());
        String other = subtasks.get(0).get("nodeInfo").get("nodeId").asText();
        assertFalse(master.equals(address(other)), master);
        assertEquals("coord " + master + ":6000 " + master + "\nprimary true " + master + "," + address(other) + "\n",
                client.get("/jobs/job-1/tasks/mpi/files/stdout.txt").text());
        assertEquals("coord " + master + ":6000 " + address(other) + "\n", client.get("/pools/pool-1/nodes/" + other
                + "/files/workitems/job-1/job-1/mpi/stdout.txt").text());
    }

    private String address(String nodeId) throws Exception {
        String address = client.get("/pools/pool-1/nodes/" + nodeId).json().get("ipAddress").asText();
        assertTrue(NodeNetwork.all().stream().anyMatch(n -> n.address().equals(address)), address);
        return address;
    }

    @Test
    void faultsAnswerInsteadOrLoseTheReplyAfterApplying() throws Exception {
        poolAndJob();
        fake.faults().throttle("Task_Add", 1, Duration.ofSeconds(7), Faults.RetryAfterForm.SECONDS);
        fake.faults().throttle("Task_Add", 1, Duration.ofSeconds(7), Faults.RetryAfterForm.HTTP_DATE);
        fake.faults().serverBusy("Task_Add", 1);
        fake.faults().dropAfterApply("Task_Add", 1);
        FakeClient.Reply throttled = client.post("/jobs/job-1/tasks", task("f", "true"));
        assertEquals(429, throttled.status());
        assertEquals("7", throttled.raw().headers().firstValue("Retry-After").orElseThrow());
        FakeClient.Reply dated = client.post("/jobs/job-1/tasks", task("f", "true"));
        assertTrue(dated.raw().headers().firstValue("Retry-After").orElseThrow().endsWith("GMT"));
        assertEquals("ServerBusy", client.post("/jobs/job-1/tasks", task("f", "true")).json().get("code").asText());
        assertThrows(IOException.class, () -> client.post("/jobs/job-1/tasks", task("f", "true")));
        assertEquals("TaskExists", client.post("/jobs/job-1/tasks", task("f", "true")).json().get("code").asText());
        assertEquals(5, fake.count("Task_Add"));
    }

    @Test
    void wrongCredentialsAreAuthenticationFailed() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var reply = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(fake.url()
                        + "/pools?api-version=" + BatchHttpFront.API_VERSION))
                .header("Authorization", "Bearer fake-token:https://management.azure.com/.default").build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(403, reply.statusCode());
        assertTrue(reply.body().contains("AuthenticationFailed"), reply.body());
    }
}
