package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A managed identity's token endpoint as App Service (and Azure Functions, Container Apps) serve it to their code, the
 * contract azure-identity's managed identity credential follows (through MSAL4J) when the environment names
 * {@code IDENTITY_ENDPOINT} and {@code IDENTITY_HEADER}: {@code GET {endpoint}?resource=R&api-version=2019-08-01}
 * (with {@code client_id} for a user-assigned identity), the header {@code X-IDENTITY-HEADER} carrying the secret.
 * It answers
 * <pre>
 * {"access_token": "fake-token:R/.default", "expires_on": "EPOCH_SECONDS", "resource": "R",
 *  "token_type": "Bearer", "client_id": "..."}
 * </pre>
 * so a token is {@link FakeTokenIssuer#token} of the scope the client asked ({@code R} plus {@code /.default}, which
 * azure-identity strips to make the resource): {@code https://batch.core.windows.net//.default} for Batch,
 * {@code https://management.core.windows.net//.default} for Resource Manager, which the Batch fake and
 * {@link ArmFake} accept. A missing secret is {@code 401}, a wrong one {@code 403}, a missing resource or another API
 * version {@code 400}, each with an error body naming what is wrong. Plain HTTP on {@code 127.0.0.1}, as App Service's
 * own endpoint is local to the host; no refresh, no certificate.
 */
public final class ManagedIdentityFake implements AutoCloseable {
    /** The API version of the App Service contract (azure-identity 1.18 through MSAL4J 1.23 asks this one). */
    public static final String API_VERSION = "2019-08-01";
    /** The header that must carry {@link #secret()}. */
    public static final String HEADER = "X-IDENTITY-HEADER";
    /** The identity's client id, answered in every token. */
    public static final String CLIENT_ID = "00000000-0000-0000-0000-0000000000c1";
    static final String PATH = "/msi/token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String secret = UUID.randomUUID().toString();
    private final List<String> resources = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private volatile Duration lifetime = Duration.ofHours(1);

    public ManagedIdentityFake() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the managed identity endpoint", e);
        }
        server.createContext(PATH, this::handle);
        server.start();
    }

    /** The value of {@code IDENTITY_ENDPOINT}, e.g. {@code http://127.0.0.1:40123/msi/token}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** The value of {@code IDENTITY_HEADER}: the secret each request must carry in {@link #HEADER}. */
    public String secret() {
        return secret;
    }

    /** {@code IDENTITY_ENDPOINT} and {@code IDENTITY_HEADER}, as App Service sets them for its code. */
    public Map<String, String> environment() {
        return Map.of("IDENTITY_ENDPOINT", endpoint(), "IDENTITY_HEADER", secret);
    }

    /** Every resource a token was issued for, in order. */
    public List<String> resources() {
        return List.copyOf(resources);
    }

    /** Tokens issued from now on expire this long after they are issued (an hour unless told). */
    public void lifetime(Duration lifetime) {
        this.lifetime = lifetime;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            String given = exchange.getRequestHeaders().getFirst(HEADER);
            String resource = query.get("resource");
            if (!exchange.getRequestMethod().equals("GET")) {
                refuse(exchange, 405, exchange.getRequestMethod() + " is not supported; GET " + PATH);
            } else if (given == null) {
                refuse(exchange, 401, "The request has no " + HEADER + " header; send the value of IDENTITY_HEADER");
            } else if (!given.equals(secret)) {
                refuse(exchange, 403, "The " + HEADER + " header does not match IDENTITY_HEADER");
            } else if (!API_VERSION.equals(query.get("api-version"))) {
                refuse(exchange, 400, "api-version '" + query.get("api-version") + "' is not supported; use "
                        + API_VERSION);
            } else if (resource == null || resource.isBlank()) {
                refuse(exchange, 400, "The resource query parameter is missing: name the audience, e.g. "
                        + CloudMetadata.BATCH_AUDIENCE);
            } else {
                resources.add(resource);
                ObjectNode token = JSON.createObjectNode();
                token.put("access_token", FakeTokenIssuer.token(resource + "/.default"));
                token.put("expires_on", String.valueOf(Instant.now().plus(lifetime).getEpochSecond()));
                token.put("resource", resource);
                token.put("token_type", "Bearer");
                token.put("client_id", CLIENT_ID);
                send(exchange, 200, token);
            }
        }
    }

    /** An error as App Service's endpoint writes one: a status code, a message, a correlation id. */
    private static void refuse(HttpExchange exchange, int status, String message) throws IOException {
        ObjectNode error = JSON.createObjectNode();
        error.put("statusCode", status);
        error.put("message", message);
        error.put("correlationId", UUID.randomUUID().toString());
        send(exchange, status, error);
    }

    private static void send(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
