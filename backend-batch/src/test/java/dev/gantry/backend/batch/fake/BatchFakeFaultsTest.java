package dev.gantry.backend.batch.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.azure.fakes.LocalHttps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Faults after a request was applied, the record of requests, HTTPS and the control endpoint. */
class BatchFakeFaultsTest {
    @Test
    void aSlowReplyComesAfterTheClientsTimeoutButTheRequestWasApplied() throws Exception {
        try (BatchFake fake = new BatchFake()) {
            FakeClient client = new FakeClient(fake);
            fake.faults().slowAfterApply("Pool_Add", 1, Duration.ofSeconds(2));
            fake.faults().serverError("Pool_Get", 1);
            HttpRequest add = HttpRequest.newBuilder(URI.create(fake.url() + "/pools?api-version="
                            + BatchHttpFront.API_VERSION))
                    .header("Authorization", "Bearer fake-token:" + AccountAuth.BATCH_SCOPE)
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofMillis(300))
                    .POST(HttpRequest.BodyPublishers.ofString(FakeClient.pool("slow"))).build();
            assertThrows(HttpTimeoutException.class, () -> HttpClient.newHttpClient().send(add,
                    HttpResponse.BodyHandlers.ofString()));
            assertTrue(fake.pool("slow").isPresent(), "applied before the slow reply");
            FakeClient.Reply error = client.get("/pools/slow");
            assertEquals(500, error.status());
            assertEquals("InternalError", error.json().get("code").asText());
            assertEquals("slow", client.get("/pools/slow").json().get("id").asText());
            RecordedRequest recorded = fake.requests().get(0);
            assertEquals("Pool_Add", recorded.operation());
            assertEquals("POST", recorded.method());
            assertEquals("/pools", recorded.path());
            assertEquals(BatchHttpFront.API_VERSION, recorded.query().get("api-version"));
            assertTrue(recorded.body().contains("\"id\":\"slow\""), recorded.body());
            assertEquals("application/json", recorded.headers().get("content-type").get(0));
            assertEquals(2, fake.count("Pool_Get"));
            assertEquals(200, client.send("HEAD", "/pools/slow", null, null).status());
            assertEquals(404, client.send("HEAD", "/pools/none", null, null).status());
            fake.faults().serverBusy("Pool_List", 1, Duration.ofSeconds(4), Faults.RetryAfterForm.SECONDS);
            FakeClient.Reply busy = client.get("/pools");
            assertEquals(503, busy.status());
            assertEquals("4", busy.raw().headers().firstValue("Retry-After").orElseThrow());
        }
    }

    @Test
    void overHttpsASlowReplyHoldsNoOtherRequest() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().https(true))) {
            fake.faults().slowAfterApply("Pool_Add", 1, Duration.ofSeconds(5));
            HttpClient https = HttpClient.newBuilder().sslContext(LocalHttps.trustingContext()).build();
            HttpRequest.Builder request = HttpRequest.newBuilder()
                    .header("Authorization", "Bearer fake-token:" + AccountAuth.BATCH_SCOPE)
                    .timeout(Duration.ofSeconds(20));
            var slow = https.sendAsync(request.copy().uri(URI.create(fake.url() + "/pools?api-version="
                    + BatchHttpFront.API_VERSION)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(FakeClient.pool("slow"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            while (fake.pool("slow").isEmpty()) {
                Thread.sleep(10);
            }
            long started = System.nanoTime();
            HttpResponse<String> images = https.send(request.copy().uri(URI.create(fake.url()
                    + "/supportedimages?api-version=" + BatchHttpFront.API_VERSION)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, images.statusCode(), images.body());
            assertTrue(System.nanoTime() - started < Duration.ofSeconds(3).toNanos(), "answered while the slow"
                    + " reply waits");
            assertFalse(slow.isDone(), "the slow reply still waits");
            assertEquals(201, slow.get().statusCode());
        }
    }

    @Test
    void overHttpsTheFakeServesTheTestCertificate() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().https(true))) {
            assertTrue(fake.url().startsWith("https://127.0.0.1:"), fake.url());
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            try (var in = BatchFakeFaultsTest.class.getResourceAsStream("/tls/local-fake-tls.p12")) {
                trust.load(in, "local-fake".toCharArray());
            }
            var factory = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            var tls = javax.net.ssl.SSLContext.getInstance("TLS");
            tls.init(null, factory.getTrustManagers(), null);
            HttpResponse<String> reply = HttpClient.newBuilder().sslContext(tls).build().send(
                    HttpRequest.newBuilder(URI.create(fake.url() + "/supportedimages?api-version="
                                    + BatchHttpFront.API_VERSION))
                            .header("Authorization", "Bearer fake-token:" + AccountAuth.BATCH_SCOPE).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, reply.statusCode(), reply.body());
            assertTrue(reply.body().contains("batch.node.ubuntu 22.04"), reply.body());
        }
    }

    @Test
    void theControlEndpointPlansFaultsPreemptsAndCounts() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions()
                .autoscaleInterval(Duration.ofMillis(100)))) {
            FakeClient client = new FakeClient(fake);
            String control = fake.startControl();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> planned = http.send(HttpRequest.newBuilder(URI.create(control
                    + "/fault?operation=Job_Add&kind=throttle&seconds=3&form=seconds")).POST(
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, planned.statusCode(), planned.body());
            client.post("/pools", FakeClient.pool("p", FakeClient.ONE_SPOT_NODE)); // only Spot nodes are preempted
            FakeClient.Reply throttled = client.post("/jobs", FakeClient.job("j", "p"));
            assertEquals(429, throttled.status());
            assertEquals("3", throttled.raw().headers().firstValue("Retry-After").orElseThrow());
            client.post("/jobs", FakeClient.job("j", "p"));
            client.post("/jobs/j/tasks", FakeClient.task("t", "sleep 30"));
            String node = client.waitForTask("j", "t", FakeClient.inState("running")).get("nodeInfo")
                    .get("nodeId").asText();
            HttpResponse<String> preempted = http.send(HttpRequest.newBuilder(URI.create(control
                    + "/preempt?job=j&task=t")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("{\"preempted\":\"" + node + "\"}", preempted.body());
            String counts = http.send(HttpRequest.newBuilder(URI.create(control + "/counts")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(counts.contains("\"Job_Add\":2"), counts);
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(control + "/nothing")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, wrong.statusCode());
        }
    }

    @Test
    void aDedicatedNodeIsNotPreemptedInProcessNorThroughTheControlEndpoint() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().autoscaleInterval(Duration.ofMillis(100)))) {
            FakeClient client = new FakeClient(fake);
            String control = fake.startControl();
            client.post("/pools", FakeClient.pool("d", FakeClient.ONE_NODE));
            client.post("/jobs", FakeClient.job("j", "d"));
            client.post("/jobs/j/tasks", FakeClient.task("t", "sleep 30"));
            String node = client.waitForTask("j", "t", FakeClient.inState("running")).get("nodeInfo")
                    .get("nodeId").asText();

            NotPreemptible refused = assertThrows(NotPreemptible.class, () -> fake.preemptNode("d", node));
            assertTrue(refused.getMessage().startsWith("node " + node + " of pool d is a dedicated node, and only "
                    + "Spot (low-priority) nodes are preempted"), refused.getMessage());
            HttpResponse<String> byTask = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(control
                    + "/preempt?job=j&task=t")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(409, byTask.statusCode(), byTask.body());
            assertTrue(byTask.body().contains("node " + node + " of pool d is a dedicated node"), byTask.body());
            assertTrue(byTask.body().contains("only Spot (low-priority) nodes are preempted"), byTask.body());
            assertEquals("running", fake.task("j", "t").orElseThrow().get("state").asText(), "the task runs on");
            assertEquals("running", client.get("/pools/d/nodes/" + node).json().get("state").asText(),
                    "the node is not preempted");
        }
    }
}
