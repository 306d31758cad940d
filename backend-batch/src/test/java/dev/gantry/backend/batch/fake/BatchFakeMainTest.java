package dev.gantry.backend.batch.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.azure.fakes.FakeTokenIssuer;
import dev.gantry.azure.fakes.ManagedIdentityFake;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake as scripts/test-batch.sh starts it ({@link BatchFakeMain#start}, in process), read through its env file
 * only, as the {@code gantry} CLI and the end-to-end script read it: every URL, secret and file the CLI needs.
 */
class BatchFakeMainTest {
    private static final String BATCH_API = "api-version=" + BatchHttpFront.API_VERSION;

    @TempDir
    Path dir;

    @Test
    void inEntraModeTheCliFindsAnHttpsAccountInUserSubscriptionModeAnIdentityAndATrustStore() throws Exception {
        Files.writeString(dir.resolve("key"), "stale key of an earlier shared-key run\n");
        try (BatchFakeMain.Running running = BatchFakeMain.start(List.of("--env", dir.resolve("batch.env").toString(),
                "--key-file", dir.resolve("key").toString(), "--root", dir.resolve("root").toString(),
                "--account", "eastus", "--entra", "--vm-size", "Standard_D2s_v5=standardDSv5Family:2"))) {
            Map<String, String> env = env(dir.resolve("batch.env"));
            assertEquals(List.of("BATCH_URL", "BATCH_ACCOUNT", "BATCH_AUTH", "BATCH_KEY_FILE", "BATCH_CONTROL_URL",
                    "BATCH_REGION", "BATCH_RESOURCE_ID", "BATCH_ARM_METADATA_URL", "BATCH_IDENTITY_ENDPOINT",
                    "BATCH_IDENTITY_HEADER",
                    "BATCH_TRUSTSTORE", "BATCH_TRUSTSTORE_PASSWORD"), List.copyOf(env.keySet()));
            assertEquals("entra", env.get("BATCH_AUTH"));
            assertEquals("eastus", env.get("BATCH_ACCOUNT"));
            assertEquals("eastus", env.get("BATCH_REGION"), "the account's region in Resource Manager");
            assertTrue(env.get("BATCH_URL").matches("https://127\\.0\\.0\\.1:[0-9]+"), env.get("BATCH_URL"));
            assertEquals("", env.get("BATCH_KEY_FILE"), "the account takes no shared key");
            assertFalse(Files.exists(dir.resolve("key")), "no stale key stays readable");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dir.resolve("batch.env"))));
            assertEquals(dir.resolve("truststore.p12").toString(), env.get("BATCH_TRUSTSTORE"));
            assertTrue(running.readyLine().endsWith(" control off auth entra"), running.readyLine());

            HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(env)).build();
            HttpResponse<String> sharedKey = trusting.send(HttpRequest.newBuilder(URI.create(env.get("BATCH_URL")
                    + "/pools?" + BATCH_API)).header("Authorization", "SharedKey eastus:c2lnbmF0dXJl")
                    .header("ocp-date", "Sat, 05 Dec 2026 15:00:00 GMT").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, sharedKey.statusCode(), sharedKey.body());
            assertTrue(sharedKey.body().contains("does not take shared-key authentication"), sharedKey.body());

            String batchToken = token(env, "https://batch.core.windows.net/");
            assertEquals(FakeTokenIssuer.token("https://batch.core.windows.net//.default"), batchToken);
            HttpResponse<String> pools = trusting.send(HttpRequest.newBuilder(URI.create(env.get("BATCH_URL")
                    + "/pools?" + BATCH_API)).header("Authorization", "Bearer " + batchToken).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, pools.statusCode(), pools.body());

            JsonNode cloud = Json.MAPPER.readTree(trusting.send(HttpRequest.newBuilder(URI.create(
                    env.get("BATCH_ARM_METADATA_URL"))).build(), HttpResponse.BodyHandlers.ofString()).body()).get(0);
            String resourceManager = cloud.get("resourceManager").asText();
            String managementToken = token(env, cloud.at("/authentication/audiences/0").asText());
            JsonNode account = arm(trusting, resourceManager, env.get("BATCH_RESOURCE_ID") + "?api-version=2024-07-01",
                    managementToken);
            assertEquals("UserSubscription", account.at("/properties/poolAllocationMode").asText(), account.toString());
            assertEquals(env.get("BATCH_URL").substring("https://".length()),
                    account.at("/properties/accountEndpoint").asText(), "Resource Manager names the fake's address");
            String subscription = "/subscriptions/" + env.get("BATCH_RESOURCE_ID").split("/")[2];
            JsonNode skus = arm(trusting, resourceManager, subscription + "/providers/Microsoft.Batch/locations/eastus/"
                    + "virtualMachineSkus?api-version=2024-07-01", managementToken);
            assertEquals("Standard_D2s_v5", skus.at("/value/0/name").asText(), skus.toString());
            assertTrue(skus.toString().contains("{\"name\":\"LowPriorityCapable\",\"value\":\"True\"}"),
                    skus.toString());
            JsonNode usages = arm(trusting, resourceManager, subscription + "/providers/Microsoft.Compute/locations/"
                    + "eastus/usages?api-version=2024-07-01", managementToken);
            assertTrue(usages.toString().contains("\"value\":\"standardDSv5Family\""), usages.toString());
            assertTrue(usages.toString().contains("\"value\":\"lowPriorityCores\""), usages.toString());
        }
    }

    @Test
    void theTrustStoreHoldsOnlyTheFakesCertificateAndTheJdksOwnTrustRefusesIt() throws Exception {
        try (BatchFakeMain.Running running = BatchFakeMain.start(List.of("--env", dir.resolve("batch.env").toString(),
                "--entra", "--truststore", dir.resolve("trust.p12").toString()))) {
            Map<String, String> env = env(dir.resolve("batch.env"));
            KeyStore store = trustStore(env);
            List<String> aliases = Collections.list(store.aliases());
            assertEquals(1, aliases.size(), aliases.toString());
            assertTrue(store.isCertificateEntry(aliases.get(0)), "a certificate, no key");
            HttpRequest request = HttpRequest.newBuilder(URI.create(env.get("BATCH_URL") + "/pools?" + BATCH_API))
                    .build();
            assertEquals(403, HttpClient.newBuilder().sslContext(trusting(env)).build()
                    .send(request, HttpResponse.BodyHandlers.ofString()).statusCode(), "the handshake completes");
            assertThrows(SSLHandshakeException.class, () -> HttpClient.newHttpClient().send(request,
                    HttpResponse.BodyHandlers.ofString()), "the JDK's own trust does not know the fakes' certificate");
        }
    }

    @Test
    void withoutEntraTheAccountTakesSharedKeyAndTheEnvFileSaysSo() throws Exception {
        try (BatchFakeMain.Running running = BatchFakeMain.start(List.of("--env", dir.resolve("batch.env").toString(),
                "--key-file", dir.resolve("key").toString(), "--control"))) {
            Map<String, String> env = env(dir.resolve("batch.env"));
            assertEquals(List.of("BATCH_URL", "BATCH_ACCOUNT", "BATCH_AUTH", "BATCH_KEY_FILE", "BATCH_CONTROL_URL"),
                    List.copyOf(env.keySet()));
            assertEquals("sharedKey", env.get("BATCH_AUTH"));
            assertTrue(env.get("BATCH_URL").startsWith("http://127.0.0.1:"), env.get("BATCH_URL"));
            assertEquals(running.fake.accountKey() + "\n", Files.readString(Path.of(env.get("BATCH_KEY_FILE"))));
            assertEquals("ready " + env.get("BATCH_URL") + " account gantryfake control "
                    + env.get("BATCH_CONTROL_URL"), running.readyLine());
        }
    }

    @Test
    void wrongFlagsAreRefusedNamingTheFlagAndTheFormBeforeAnythingStarts() {
        String env = dir.resolve("batch.env").toString();
        assertEquals("--vm-size 'Standard_D2s_v5=2' is not NAME=FAMILY:VCPUS, e.g. "
                + "Standard_D2s_v5=standardDSv5Family:2 (VCPUS a whole number from 1)", refusal("--env", env,
                "--entra", "--vm-size", "Standard_D2s_v5=2"));
        assertEquals("--key-file is required for a shared-key account (without --entra)", refusal("--env", env));
        assertEquals("--vm-size, --region describe an Entra ID account: add --entra, or remove them",
                refusal("--env", env, "--key-file", "k", "--vm-size", "a=b:1", "--region", "westus"));
        assertEquals("nodeRetention must not be negative, got PT-1S",
                refusal("--env", env, "--entra", "--node-retention", "PT-1S"));
        assertFalse(Files.exists(dir.resolve("batch.env")));
    }

    private static String refusal(String... args) {
        return assertThrows(BatchFakeFlags.Wrong.class, () -> BatchFakeMain.start(List.of(args))).getMessage();
    }

    /** The env file as a shell that sources it reads it (every value in double quotes, nothing escaped here). */
    private static Map<String, String> env(Path file) throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.startsWith("#")) {
                int equals = line.indexOf('=');
                env.put(line.substring(0, equals), line.substring(equals + 2, line.length() - 1));
            }
        }
        return env;
    }

    private static KeyStore trustStore(Map<String, String> env) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(env.get("BATCH_TRUSTSTORE")))) {
            store.load(in, env.get("BATCH_TRUSTSTORE_PASSWORD").toCharArray());
        }
        return store;
    }

    /** What {@code -Djavax.net.ssl.trustStore=... -Djavax.net.ssl.trustStoreType=PKCS12} gives a JVM. */
    private static SSLContext trusting(Map<String, String> env) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trustStore(env));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** A token from the managed identity endpoint, asked as App Service's contract asks. */
    private static String token(Map<String, String> env, String resource) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                env.get("BATCH_IDENTITY_ENDPOINT") + "?api-version=" + ManagedIdentityFake.API_VERSION + "&resource="
                        + URLEncoder.encode(resource, StandardCharsets.UTF_8)))
                .header(ManagedIdentityFake.HEADER, env.get("BATCH_IDENTITY_HEADER")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return Json.MAPPER.readTree(answer.body()).get("access_token").asText();
    }

    private static JsonNode arm(HttpClient http, String resourceManager, String pathAndQuery, String token)
            throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(resourceManager
                + pathAndQuery.substring(1))).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return Json.MAPPER.readTree(answer.body());
    }
}
