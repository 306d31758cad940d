package dev.gantry.azure.fakes;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * A local Key Vault data plane answering {@code GET {vault}/secrets/{name}[/{version}]?api-version=...} as the
 * published REST contract describes it:
 * <ul>
 *   <li>a request without a bearer token gets 401 with the challenge {@code WWW-Authenticate: Bearer
 *       authorization="https://login.microsoftonline.com/{tenant}", resource="https://vault.azure.net"}, which the
 *       SDK answers by asking its credential for a token of that tenant and resource and sending the request again;
 *       a token other than {@link #TOKEN} gets 401 with the same challenge;</li>
 *   <li>a missing or unknown {@code api-version} gets 400 {@code BadParameter};</li>
 *   <li>a readable secret answers 200 with a {@code SecretBundle}: {@code value}, {@code id} (with the version),
 *       {@code attributes} (enabled, created and updated in Unix seconds, recovery level) and {@code tags};</li>
 *   <li>a missing secret or version answers 404 {@code SecretNotFound}; a caller without the role answers 403
 *       {@code Forbidden} ({@code ForbiddenByRbac}); a disabled version answers 403 {@code Forbidden}
 *       ({@code SecretDisabled}).</li>
 * </ul>
 * Errors use Key Vault's body {@code {"error":{"code":...,"message":...,"innererror":{"code":...}}}}. Secret names
 * are case-insensitive, as in Key Vault. It serves HTTPS with {@link LocalHttps}.
 */
public final class KeyVaultFake implements AutoCloseable {
    public static final String TENANT = "9c1b2f3e-0d4a-4e5f-8a6b-7c8d9e0f1a2b";
    public static final String RESOURCE = "https://vault.azure.net";
    public static final String TOKEN = "fake-key-vault-token";
    // The versions the SDK may send: the 7.x line and the dated ones that followed it.
    private static final Pattern API_VERSION = Pattern.compile("7\\.[0-6](?:-preview)?|2025-07-01");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as the fake received it. */
    public record Request(String method, String path, Map<String, String> query, Optional<String> authorization) {
    }

    private record Version(String id, String value, boolean enabled, long created) {
    }

    private final HttpsServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, List<Version>> secrets = new LinkedHashMap<>();
    private boolean callerForbidden;
    private boolean bundlesCutShort;
    private int throttleLeft;
    private String retryAfter = "0";
    private long clock = 1_764_590_400L;

    public KeyVaultFake() throws IOException {
        server = LocalHttps.start(this::handle);
    }

    /** The fake's URL, which tests map a vault's URL to. */
    public String url() {
        return LocalHttps.baseUrl(server);
    }

    /** A credential that hands out {@link #TOKEN} and records what each token request asked for. */
    public static RecordingCredential credential(String token) {
        return new RecordingCredential(token);
    }

    /** Stores a new version of a secret, which becomes its latest; returns the version's id. */
    public synchronized String put(String name, String value) {
        String id = UUID.randomUUID().toString().replace("-", "");
        secrets.computeIfAbsent(key(name), n -> new ArrayList<>()).add(new Version(id, value, true, clock++));
        return id;
    }

    /** Disables one version, as {@code az keyvault secret set-attributes --enabled false} does. */
    public synchronized void disable(String name, String version) {
        List<Version> versions = secrets.get(key(name));
        versions.replaceAll(v -> v.id().equals(version) ? new Version(v.id(), v.value(), false, v.created()) : v);
    }

    /** From now on the caller's identity has no role that may read secrets. */
    public synchronized void forbidCaller() {
        callerForbidden = true;
    }

    /**
     * From now on a readable secret answers 200 with its bundle cut off after the value, as a connection dropped
     * mid-answer would leave it: the value has left the vault, but the SDK cannot read the answer.
     */
    public synchronized void cutBundlesShort() {
        bundlesCutShort = true;
    }

    /**
     * The next {@code times} authorized requests answer 429 with this {@code Retry-After} (seconds), as a vault
     * throttles a caller over its service limits.
     */
    public synchronized void throttle(int times, String retryAfterSeconds) {
        throttleLeft = times;
        retryAfter = retryAfterSeconds;
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            Optional<String> authorization = Optional.ofNullable(
                    exchange.getRequestHeaders().getFirst("Authorization"));
            requests.add(new Request(exchange.getRequestMethod(), path, query, authorization));
            if (authorization.isEmpty()) {
                challenge(exchange, "AKV10000: Request is missing a Bearer or PoP token.");
                return;
            }
            if (!authorization.get().equals("Bearer " + TOKEN)) {
                challenge(exchange, "AKV10032: Invalid issuer. Expected one of https://sts.windows.net/" + TENANT
                        + "/, found https://sts.windows.net/00000000-0000-0000-0000-000000000000/.");
                return;
            }
            if (throttleLeft > 0) {
                throttleLeft--;
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
                error(exchange, 429, "Throttled", "Request was not processed because too many requests were "
                        + "received. Reason: VaultRequestTypeLimitReached", null);
                return;
            }
            String version = query.get("api-version");
            if (version == null || !API_VERSION.matcher(version).matches()) {
                error(exchange, 400, "BadParameter", "The specified version (" + version + ") is not recognized. "
                        + "Consider using the latest supported version (2025-07-01).", null);
                return;
            }
            String[] parts = path.substring(1).split("/");
            if (!exchange.getRequestMethod().equals("GET") || parts.length < 2 || parts.length > 3
                    || !parts[0].equals("secrets")) {
                error(exchange, 400, "BadParameter", "The fake serves GET /secrets/{name}[/{version}] only, got "
                        + exchange.getRequestMethod() + " " + path, null);
                return;
            }
            getSecret(exchange, parts[1], parts.length == 3 ? parts[2] : null);
        }
    }

    private void getSecret(HttpExchange exchange, String name, String versionId) throws IOException {
        if (callerForbidden) {
            error(exchange, 403, "Forbidden", "Caller is not authorized to perform action on resource.\r\n"
                    + "If role assignments, deny assignments or role definitions were changed recently, please "
                    + "observe propagation time.\r\nAction: 'Microsoft.KeyVault/vaults/secrets/getSecret/action'",
                    "ForbiddenByRbac");
            return;
        }
        List<Version> versions = secrets.getOrDefault(key(name), List.of());
        Optional<Version> found = versionId == null
                ? versions.stream().reduce((first, second) -> second)
                : versions.stream().filter(v -> v.id().equals(versionId)).findFirst();
        if (found.isEmpty()) {
            error(exchange, 404, "SecretNotFound", "A secret with (name/id) " + name
                    + (versionId == null ? "" : "/" + versionId) + " was not found in this key vault. If you "
                    + "recently deleted this secret you may be able to recover it using the correct recovery "
                    + "command.", null);
            return;
        }
        Version secret = found.get();
        if (!secret.enabled()) {
            error(exchange, 403, "Forbidden", "Operation get is not allowed on a disabled secret.", "SecretDisabled");
            return;
        }
        ObjectNode bundle = JSON.createObjectNode();
        bundle.put("value", secret.value());
        bundle.put("id", url() + "/secrets/" + name + "/" + secret.id());
        bundle.putObject("attributes").put("enabled", true).put("created", secret.created())
                .put("updated", secret.created()).put("recoveryLevel", "Recoverable+Purgeable")
                .put("recoverableDays", 90);
        bundle.putObject("tags");
        if (bundlesCutShort) {
            String text = JSON.writeValueAsString(bundle);
            sendText(exchange, 200, text.substring(0, text.indexOf(secret.value()) + secret.value().length() + 2));
            return;
        }
        send(exchange, 200, bundle);
    }

    private void challenge(HttpExchange exchange, String message) throws IOException {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer authorization=\"https://login.microsoftonline"
                + ".com/" + TENANT + "\", resource=\"" + RESOURCE + "\"");
        error(exchange, 401, "Unauthorized", message, null);
    }

    private static void error(HttpExchange exchange, int status, String code, String message, String innerCode)
            throws IOException {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error").put("code", code).put("message", message);
        if (innerCode != null) {
            error.putObject("innererror").put("code", innerCode);
        }
        send(exchange, status, body);
    }

    private static void send(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        sendText(exchange, status, JSON.writeValueAsString(body));
    }

    private static void sendText(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("x-ms-request-id", UUID.randomUUID().toString());
        exchange.getResponseHeaders().add("x-ms-keyvault-service-version", "1.9.2164.1");
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** A credential standing in for DefaultAzureCredential: hands out one token and records each request for it. */
    public static final class RecordingCredential implements TokenCredential {
        private final String token;
        private final List<TokenRequestContext> requests = new CopyOnWriteArrayList<>();

        private RecordingCredential(String token) {
            this.token = token;
        }

        @Override
        public Mono<AccessToken> getToken(TokenRequestContext request) {
            requests.add(request);
            return Mono.just(new AccessToken(token, OffsetDateTime.now().plusHours(1)));
        }

        public List<TokenRequestContext> requests() {
            return List.copyOf(requests);
        }
    }
}
