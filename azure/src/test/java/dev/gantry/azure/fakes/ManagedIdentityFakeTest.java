package dev.gantry.azure.fakes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The managed identity endpoint, through azure-identity's own credentials (MSAL4J underneath) in a JVM started with
 * {@code IDENTITY_ENDPOINT} and {@code IDENTITY_HEADER} in its environment, as the {@code gantry} CLI is started
 * against the fakes ({@link ManagedIdentityProbe} says why a JVM of its own).
 */
class ManagedIdentityFakeTest {
    private static final String BATCH = "https://batch.core.windows.net//.default";
    private static final String MANAGEMENT = "https://management.core.windows.net//.default";

    @Test
    void defaultAzureCredentialGetsATokenForBatchAndOneForResourceManager() throws Exception {
        try (ManagedIdentityFake identity = new ManagedIdentityFake()) {
            Probe probe = probe("default", identity.environment(), BATCH, MANAGEMENT);
            assertEquals(List.of("token " + BATCH + " " + FakeTokenIssuer.token(BATCH),
                    "token " + MANAGEMENT + " " + FakeTokenIssuer.token(MANAGEMENT)), probe.lines(), probe.output);
            assertEquals(0, probe.exit, probe.output);
            assertEquals(List.of("https://batch.core.windows.net/", "https://management.core.windows.net/"),
                    identity.resources(), "azure-identity asks for the resource: the scope without /.default");
        }
    }

    @Test
    void aWrongSecretIsRefusedAndNoTokenIssued() throws Exception {
        try (ManagedIdentityFake identity = new ManagedIdentityFake()) {
            Probe probe = probe("managed", Map.of("IDENTITY_ENDPOINT", identity.endpoint(),
                    "IDENTITY_HEADER", "not-the-secret"), BATCH);
            assertEquals(1, probe.exit, probe.output);
            assertTrue(probe.output.contains("X-IDENTITY-HEADER header does not match IDENTITY_HEADER"),
                    probe.output);
            assertEquals(List.of(), identity.resources());
        }
    }

    @Test
    void aRequestWithoutTheSecretIs401AndOneWithoutAResourceIs400() throws Exception {
        try (ManagedIdentityFake identity = new ManagedIdentityFake()) {
            HttpClient http = HttpClient.newHttpClient();
            String url = identity.endpoint() + "?api-version=" + ManagedIdentityFake.API_VERSION;
            HttpResponse<String> noSecret = http.send(HttpRequest.newBuilder(URI.create(url + "&resource=x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, noSecret.statusCode());
            assertTrue(noSecret.body().contains("no X-IDENTITY-HEADER header"), noSecret.body());
            HttpResponse<String> noResource = http.send(HttpRequest.newBuilder(URI.create(url))
                    .header(ManagedIdentityFake.HEADER, identity.secret()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, noResource.statusCode());
            assertTrue(noResource.body().contains("resource query parameter is missing"), noResource.body());
        }
    }

    private record Probe(int exit, String output) {
        List<String> lines() {
            return output.lines().filter(line -> line.startsWith("token ") || line.startsWith("refused")).toList();
        }
    }

    /**
     * Runs {@link ManagedIdentityProbe} with only {@code variables} (and PATH) in its environment: no Azure
     * variable of this machine's leaks in.
     */
    private static Probe probe(String credential, Map<String, String> variables, String... scopes)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), ManagedIdentityProbe.class.getName(),
                credential));
        command.addAll(List.of(scopes));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> !name.equals("PATH"));
        builder.environment().putAll(variables);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the probe did not end within 60 s: " + output);
        }
        return new Probe(process.exitValue(), output);
    }
}
