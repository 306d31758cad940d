package dev.gantry.backend.batch.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import com.microsoft.azure.batch.protocol.models.CloudJob;
import com.microsoft.azure.batch.protocol.models.PoolListOptions;
import dev.gantry.azure.fakes.LocalHttps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Gantry's RestClient under the SDK's protocol layer, against a local HTTP server that records what it received. */
class BatchConnectionTest {
    private static final String TOKEN = "fake-token:" + BatchAuth.BATCH_SCOPE;

    private LocalBatchService service;
    private final List<String> scopesAsked = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        service = LocalBatchService.http();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private BatchConnection entra() {
        return BatchConnection.open(BatchAccountUrl.of(service.url()), new BatchAuth.Entra(scope -> {
            scopesAsked.add(scope);
            return "fake-token:" + scope;
        }));
    }

    @Test
    void everyRequestIsCountedAsARemoteCall() {
        service.answer((exchange, request) -> LocalBatchService.json(exchange, 200, "{\"id\":\"job-1\"}"));
        try (BatchConnection batch = entra()) {
            for (int i = 0; i < 3; i++) {
                batch.protocol().jobs().get("job-1");
            }
            assertEquals(3, batch.remoteCalls());
        }
        assertEquals(3, service.received().size());
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {500, 503, 408, 429})
    void aFailedRequestIsSentOnceAndLeftToGantrysPolicy(int status) {
        // client-runtime's default RetryHandler would send a 500, 503 or 408 four times, with no wait.
        service.answer((exchange, request) -> LocalBatchService.batchError(exchange, status, "ServerBusy",
                "The server is busy."));
        try (BatchConnection batch = entra()) {
            BatchErrorException e = assertThrows(BatchErrorException.class,
                    () -> batch.protocol().jobs().get("job-1"));
            assertEquals(status, e.response().code());
            assertEquals("ServerBusy", e.body().code());
            assertEquals(1, batch.remoteCalls());
        }
        assertEquals(1, service.received().size(), "sent once");
    }

    @Test
    void aConnectionDroppedWithoutAnAnswerIsNotSentAgainByOkHttp() {
        // The request reached the server, which may have applied it; only Gantry's policy may send it again.
        service.answer((exchange, request) -> {
            throw new java.io.IOException("dropped by the test");
        });
        try (BatchConnection batch = entra()) {
            assertThrows(RuntimeException.class, () -> batch.protocol().jobs().get("job-1"));
            assertEquals(1, batch.remoteCalls());
        }
        assertEquals(1, service.received().size());
    }

    @Test
    void aGetAnswered404ThrowsBatchsErrorAsBatchClientDoes() {
        service.answer((exchange, request) -> LocalBatchService.batchError(exchange, 404, "JobNotFound",
                "The specified job does not exist."));
        try (BatchConnection batch = entra()) {
            BatchErrorException e = assertThrows(BatchErrorException.class,
                    () -> batch.protocol().jobs().get("job-1"));
            assertEquals(404, e.response().code());
            assertEquals("JobNotFound", e.body().code());
            assertTrue(e.body().message().value().startsWith("The specified job does not exist."),
                    e.body().message().value());
        }
    }

    @Test
    void aGetAnswered200IsRead() {
        service.answer((exchange, request) -> LocalBatchService.json(exchange, 200,
                "{\"id\":\"job-1\",\"usesTaskDependencies\":true}"));
        try (BatchConnection batch = entra()) {
            CloudJob job = batch.protocol().jobs().get("job-1");
            assertEquals("job-1", job.id());
            assertEquals(Boolean.TRUE, job.usesTaskDependencies());
        }
    }

    @Test
    void eachRequestCarriesAFreshClientRequestIdAndAsksForItBack() {
        service.answer((exchange, request) -> LocalBatchService.json(exchange, 200, "{\"value\":[]}"));
        try (BatchConnection batch = entra()) {
            batch.protocol().pools().list(new PoolListOptions().withFilter("startswith(id,'gantry-')"));
            batch.protocol().pools().list();
        }
        List<LocalBatchService.Received> received = service.received();
        String first = received.get(0).header("client-request-id");
        String second = received.get(1).header("client-request-id");
        assertNotNull(first, "client-request-id header");
        assertEquals(first, UUID.fromString(first).toString(), "a UUID");
        assertNotEquals(first, second, "a fresh id per request");
        for (LocalBatchService.Received request : received) {
            assertEquals("true", request.header("return-client-request-id"));
            assertTrue(request.rawQuery().contains("api-version=2024-07-01.20.0"), request.rawQuery());
        }
    }

    @Test
    void entraSendsABearerTokenForTheBatchScope() {
        try (BatchConnection batch = entra()) {
            batch.protocol().jobs().get("job-1");
        }
        assertEquals("Bearer " + TOKEN, service.received().get(0).header("authorization"));
        assertEquals(List.of("https://batch.core.windows.net//.default"), scopesAsked);
    }

    @Test
    void entraInAnotherCloudSendsATokenForThatCloudsBatchScope() {
        String china = "https://batch.chinacloudapi.cn//.default";
        try (BatchConnection batch = BatchConnection.open(BatchAccountUrl.of(service.url()), new BatchAuth.Entra(
                scope -> {
                    scopesAsked.add(scope);
                    return "fake-token:" + scope;
                }, china))) {
            batch.protocol().jobs().get("job-1");
        }
        assertEquals("Bearer fake-token:" + china, service.received().get(0).header("authorization"));
        assertEquals(List.of(china), scopesAsked);
    }

    @Test
    void aTokenThatCannotBeHadFailsTheCallWithItsReasonAndSendsNothing() {
        BatchConnection batch = BatchConnection.open(BatchAccountUrl.of(service.url()), new BatchAuth.Entra(scope -> {
            throw new IllegalStateException("sign in with az login");
        }));
        try (batch) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> batch.protocol().jobs().get("job-1"));
            assertTrue(causes(e).contains("sign in with az login"), causes(e));
            assertEquals(0, batch.remoteCalls());
        }
        assertEquals(0, service.received().size());
    }

    @Test
    void sharedKeySignsEveryRequest() {
        try (BatchConnection batch = BatchConnection.open(BatchAccountUrl.of(service.url()),
                new BatchAuth.SharedKey("gantrytest", SharedKeySigningTest.KEY))) {
            batch.protocol().jobs().get("job-1");
        }
        LocalBatchService.Received request = service.received().get(0);
        assertTrue(request.header("authorization").startsWith("SharedKey gantrytest:"),
                request.header("authorization"));
        assertNotNull(request.header("ocp-date"), "the signed date");
    }

    @Test
    void aReplySlowerThanTheReadTimeoutFailsAfterOneAttempt() {
        AtomicInteger answered = new AtomicInteger();
        service.answer((exchange, request) -> {
            try {
                Thread.sleep(1_500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answered.incrementAndGet();
            LocalBatchService.json(exchange, 200, "{\"id\":\"job-1\"}");
        });
        try (BatchConnection batch = BatchConnection.to(BatchAccountUrl.of(service.url()),
                new BatchAuth.Entra(scope -> "t")).readTimeout(Duration.ofMillis(300)).open()) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> batch.protocol().jobs().get("job-1"));
            assertTrue(causes(e).contains("timeout") || causes(e).contains("timed out"), causes(e));
            assertEquals(1, batch.remoteCalls());
        }
        assertEquals(1, service.received().size());
    }

    @Test
    void httpsTrustsTheTestCertificateOnlyWhenTheTestSaysSo() throws Exception {
        try (LocalBatchService tls = LocalBatchService.https()) {
            BatchAccountUrl url = BatchAccountUrl.of(tls.url());
            try (BatchConnection trusting = BatchConnection.to(url, new BatchAuth.Entra(scope -> "t"))
                    .trustingForTests(LocalHttps.trustingContext().getSocketFactory(), LocalHttps.trustManager())
                    .open()) {
                trusting.protocol().jobs().get("job-1");
            }
            assertEquals(1, tls.received().size());
            try (BatchConnection production = BatchConnection.open(url, new BatchAuth.Entra(scope -> "t"))) {
                RuntimeException e = assertThrows(RuntimeException.class,
                        () -> production.protocol().jobs().get("job-1"));
                assertTrue(causes(e).contains("certification path") || causes(e).contains("PKIX"), causes(e));
            }
            assertEquals(1, tls.received().size(), "an untrusted server hears no request");
        }
    }

    @Test
    void noShippedClassButTheBuilderNamesTheTestTrust() throws Exception {
        // A call site names the method in its class's constant pool; only the builder, which declares it, may.
        Path classes = Path.of(BatchConnection.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> naming = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String pool = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                if (pool.contains("trustingForTests") && !file.endsWith("BatchConnection$Builder.class")) {
                    naming.add(classes.relativize(file).toString());
                }
            }
        }
        assertEquals(List.of(), naming);
    }

    static String causes(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            text.append(cause.getClass().getName()).append(": ").append(cause.getMessage()).append(" / ");
        }
        return text.toString();
    }
}
