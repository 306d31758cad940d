package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The fake's tests' client (and other tests' that drive the fake by its REST API): plain JDK HTTP with a bearer token
 * for the Batch scope, answers as JSON.
 */
public final class FakeClient {
    public record Reply(int status, JsonNode json, HttpResponse<byte[]> raw) {
        public String text() {
            return new String(raw.body(), StandardCharsets.UTF_8);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;

    public FakeClient(BatchFake fake) {
        this.url = fake.url();
    }

    /** Polls the task until the condition holds (20 s at most). */
    public JsonNode waitForTask(String jobId, String taskId, java.util.function.Predicate<JsonNode> condition)
            throws IOException, InterruptedException {
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(20);
        JsonNode task = null;
        while (java.time.Instant.now().isBefore(deadline)) {
            task = get("/jobs/" + jobId + "/tasks/" + taskId).json();
            if (condition.test(task)) {
                return task;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("task " + taskId + " never met the condition: " + task);
    }

    public static java.util.function.Predicate<JsonNode> inState(String state) {
        return task -> task.path("state").asText().equals(state);
    }

    /**
     * Asserts that a task whose node was just preempted was requeued: either still {@code active} after
     * {@code running}, or (when the fake's scheduler was quicker than the caller) taken again from {@code active}
     * by another node.
     */
    public static void assertRequeued(JsonNode task, String preemptedNode) {
        String state = task.get("state").asText();
        boolean waiting = state.equals("active") && task.get("previousState").asText().equals("running");
        boolean retaken = (state.equals("preparing") || state.equals("running"))
                && !task.path("nodeInfo").path("nodeId").asText().equals(preemptedNode);
        if (!waiting && !retaken) {
            throw new AssertionError("not requeued after its node " + preemptedNode + " was preempted: " + task);
        }
    }

    /** An autoscale formula that holds one dedicated node. */
    public static final String ONE_NODE = "$TargetDedicatedNodes=1;";
    /** An autoscale formula that holds one Spot (low-priority) node: the only kind Batch preempts. */
    public static final String ONE_SPOT_NODE = "$TargetLowPriorityNodes=1;";
    /** An autoscale formula that holds two Spot (low-priority) nodes. */
    public static final String TWO_SPOT_NODES = "$TargetLowPriorityNodes=2;";

    /** A pool body (autoscale, Ubuntu 22.04) with the given id, whose formula holds two dedicated nodes. */
    public static String pool(String id) {
        return pool(id, "$TargetDedicatedNodes=2;");
    }

    /** A pool body (autoscale, Ubuntu 22.04) with the given id and autoscale formula. */
    public static String pool(String id, String formula) {
        return "{\"id\":\"" + id + "\",\"vmSize\":\"standard_d2s_v3\","
                + "\"virtualMachineConfiguration\":{\"imageReference\":{\"publisher\":\"canonical\","
                + "\"offer\":\"0001-com-ubuntu-server-jammy\",\"sku\":\"22_04-lts\"},"
                + "\"nodeAgentSKUId\":\"batch.node.ubuntu 22.04\"},\"enableAutoScale\":true,"
                + "\"autoScaleFormula\":" + Json.MAPPER.valueToTree(formula)
                + ",\"autoScaleEvaluationInterval\":\"PT5M\","
                + "\"taskSlotsPerNode\":1}";
    }

    /** A job body on the pool, with task dependencies. */
    public static String job(String id, String poolId) {
        return "{\"id\":\"" + id + "\",\"poolInfo\":{\"poolId\":\"" + poolId + "\"},"
                + "\"usesTaskDependencies\":true,\"onAllTasksComplete\":\"noaction\"}";
    }

    public static String task(String id, String commandLine) {
        return "{\"id\":\"" + id + "\",\"commandLine\":" + Json.MAPPER.valueToTree(commandLine) + "}";
    }

    public Reply get(String pathAndQuery) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, null, null);
    }

    public Reply post(String pathAndQuery, String json) throws IOException, InterruptedException {
        return send("POST", pathAndQuery, json, null);
    }

    public Reply send(String method, String pathAndQuery, String json, String range)
            throws IOException, InterruptedException {
        String separator = pathAndQuery.contains("?") ? "&" : "?";
        String target = pathAndQuery.contains("api-version=") || pathAndQuery.startsWith("http")
                ? pathAndQuery : pathAndQuery + separator + "api-version=" + BatchHttpFront.API_VERSION;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.startsWith("http") ? target
                        : url + target))
                .header("Authorization", "Bearer fake-token:" + AccountAuth.BATCH_SCOPE)
                .timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json; odata=minimalmetadata");
        }
        if (range != null) {
            request.header("ocp-range", range);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        JsonNode body = null;
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("application/json") && response.body().length > 0) {
            body = Json.MAPPER.readTree(response.body());
        }
        return new Reply(response.statusCode(), body, response);
    }
}
