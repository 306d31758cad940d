package dev.gantry.backend.batch.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The published examples of Batch API 2024-07-01.20.0 (test resources azure-rest/batch/) replayed against the fake. */
class BatchExamplesTest {
    private final BatchFake fake = new BatchFake();
    private final FakeClient client = new FakeClient(fake);

    @AfterEach
    void close() {
        fake.close();
    }

    private static JsonNode example(String name) throws IOException {
        try (InputStream in = BatchExamplesTest.class.getResourceAsStream(
                "/azure-rest/batch/2024-07-01.20.0/examples/" + name)) {
            return Json.MAPPER.readTree(in);
        }
    }

    private void replay(String name, String path, String bodyParameter) throws Exception {
        JsonNode example = example(name);
        FakeClient.Reply reply = client.post(path, example.get("parameters").get(bodyParameter).toString());
        int expected = Integer.parseInt(example.get("responses").fieldNames().next());
        assertEquals(expected, reply.status(), name + ": " + reply.text());
    }

    @Test
    void theExamplesRequestsGetTheExamplesAnswers() throws Exception {
        replay("PoolAdd_VirtualMachineConfiguration.json", "/pools", "pool");
        ObjectNode autoscalePool = (ObjectNode) example("PoolAdd_VirtualMachineConfiguration.json")
                .get("parameters").get("pool").deepCopy();
        autoscalePool.put("id", "poolId").put("targetDedicatedNodes", 0);
        assertEquals(201, client.post("/pools", autoscalePool.toString()).status());
        replay("PoolEnableAutoscale.json", "/pools/poolId/enableautoscale", "poolEnableAutoScaleParameter");
        replay("JobAdd_Basic.json", "/jobs", "job");
        replay("TaskAdd_Basic.json", "/jobs/jobId/tasks", "task");
        replay("TaskAdd_ExitConditions.json", "/jobs/jobId/tasks", "task");
        JsonNode collection = example("TaskAddCollection_Basic.json");
        FakeClient.Reply reply = client.post("/jobs/jobId/addtaskcollection",
                collection.get("parameters").get("taskCollection").toString());
        assertEquals(200, reply.status());
        JsonNode expected = collection.get("responses").get("200").get("body").get("value");
        JsonNode actual = reply.json().get("value");
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).get("status"), actual.get(i).get("status"));
            assertEquals(expected.get(i).get("taskId"), actual.get(i).get("taskId"));
            assertEquals(fake.url() + "/jobs/jobId/tasks/" + expected.get(i).get("taskId").asText(),
                    actual.get(i).get("location").asText());
            for (String field : List.of("eTag", "lastModified")) {
                assertTrue(actual.get(i).hasNonNull(field), field + " in " + actual.get(i));
            }
        }
    }

    @Test
    void supportedImagesServesAListInTheExamplesShapeAndFiltersIt() throws Exception {
        List<ObjectNode> images = new ArrayList<>();
        example("AccountListSupportedImages.json").get("responses").get("200").get("body").get("value")
                .forEach(image -> images.add((ObjectNode) image));
        fake.supportedImages(images);
        JsonNode all = client.get("/supportedimages").json().get("value");
        assertEquals(5, all.size());
        assertEquals(images.get(1), all.get(1));
        JsonNode linux = client.get("/supportedimages?$filter=" + URLEncoder.encode("osType eq 'linux'",
                StandardCharsets.UTF_8)).json().get("value");
        assertEquals(3, linux.size());
    }
}
