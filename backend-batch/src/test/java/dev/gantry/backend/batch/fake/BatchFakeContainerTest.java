package dev.gantry.backend.batch.fake;

import static dev.gantry.backend.batch.fake.FakeClient.inState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.testing.TestPodman;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A task with containerSettings runs in its image under the test Podman, with its environment. */
class BatchFakeContainerTest {
    @Test
    void aContainerTaskRunsInItsImageWithItsEnvironmentAndItsOutputInTheTaskFiles() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions()
                .autoscaleInterval(Duration.ofMillis(100)))) {
            FakeClient client = new FakeClient(fake);
            client.post("/pools", FakeClient.pool("p", FakeClient.ONE_NODE));
            client.post("/jobs", FakeClient.job("j", "p"));
            FakeClient.Reply added = client.post("/jobs/j/tasks", "{\"id\":\"c\",\"commandLine\":\"cat "
                    + TestPodman.FILE_ONLY_IN_IMAGE + " >/dev/null && echo in-image \\\"$WORD\\\" $AZ_BATCH_TASK_ID "
                    + "&& pwd && exit 5\",\"containerSettings\":{\"imageName\":\"" + TestPodman.IMAGE + "\"},"
                    + "\"environmentSettings\":[{\"name\":\"WORD\",\"value\":\"two  spaces\"}]}");
            assertEquals(201, added.status(), added.text());
            JsonNode done = client.waitForTask("j", "c", inState("completed"));
            String stdout = client.get("/jobs/j/tasks/c/files/stdout.txt").text();
            String wd = fake.root().resolve("nodes").resolve(done.get("nodeInfo").get("nodeId").asText())
                    .resolve("workitems/j/job-1/c/wd").toString();
            assertEquals("in-image two  spaces c\n" + wd + "\n", stdout,
                    client.get("/jobs/j/tasks/c/files/stderr.txt").text());
            assertEquals(5, done.get("executionInfo").get("exitCode").asInt());

            client.post("/jobs/j/tasks", "{\"id\":\"long\",\"commandLine\":\"sleep 300\",\"containerSettings\":"
                    + "{\"imageName\":\"" + TestPodman.IMAGE + "\"}}");
            client.waitForTask("j", "long", inState("running"));
            String node = fake.nodeIds("p").get(0);
            java.time.Instant deadline = java.time.Instant.now().plusSeconds(20);
            while (!containers().contains("gantry-batch-" + node + "-long-")) {
                assertTrue(java.time.Instant.now().isBefore(deadline), "the container never started");
                Thread.sleep(100);
            }
            assertEquals(204, client.post("/jobs/j/tasks/long/terminate", null).status());
            assertFalse(containers().contains("gantry-batch-" + node + "-long-"), containers());
        }
    }

    private static String containers() {
        return TestPodman.podman("ps", "--all", "--format", "{{.Names}}").output();
    }
}
