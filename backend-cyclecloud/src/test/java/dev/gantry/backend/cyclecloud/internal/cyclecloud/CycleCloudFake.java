package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A local CycleCloud REST API over HTTPS that follows the published contract of {@code GET /clusters/{cluster}/status}
 * (optionally {@code ?nodes=true}): HTTP basic authentication (401 with a {@code WWW-Authenticate} challenge for
 * missing or wrong credentials), the cluster's {@code ClusterStatus} JSON for a cluster it knows, 404 for one it does
 * not, 403 for a cluster the user may not read, 405 for anything but GET. Tests can queue answers to give before the
 * normal one (throttling, errors), and delay every answer.
 */
final class CycleCloudFake implements AutoCloseable {
    private static final Pattern STATUS = Pattern.compile("/clusters/([^/]+)/status");

    /** One request as it arrived. */
    record Request(String method, String rawPath, String rawQuery, String authorization) {
    }

    /** An answer to give once, after authentication; {@code {authorization}} in the body repeats the header. */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    private final HttpsServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final String expectedAuthorization;
    private final Map<String, String> clusters;
    final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    final ConcurrentLinkedQueue<Answer> queued = new ConcurrentLinkedQueue<>();
    volatile Duration delay = Duration.ZERO;

    /**
     * @param keystore the server's PKCS12 key store (password {@code changeit})
     * @param user the user it accepts
     * @param password that user's password
     * @param clusters cluster name to status body
     */
    CycleCloudFake(Path keystore, String user, String password, Map<String, String> clusters)
            throws IOException, GeneralSecurityException {
        this.expectedAuthorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.clusters = Map.copyOf(clusters);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext(keystore)));
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** The fake's address, as a CycleCloud URL is written. */
    URI url() {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The {@code Authorization} header it accepts. */
    String expectedAuthorization() {
        return expectedAuthorization;
    }

    private static SSLContext serverContext(Path keystore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, TestCertificates.STORE_PASSWORD);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, TestCertificates.STORE_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            URI uri = exchange.getRequestURI();
            requests.add(new Request(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), authorization));
            if (!delay.isZero()) {
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            Matcher status = STATUS.matcher(uri.getRawPath());
            if (!status.matches()) {
                answer(exchange, 404, Map.of(), "");
                return;
            }
            if (!exchange.getRequestMethod().equals("GET")) {
                answer(exchange, 405, Map.of("Allow", "GET"), "");
                return;
            }
            if (!expectedAuthorization.equals(authorization)) {
                answer(exchange, 401, Map.of("WWW-Authenticate", "Basic realm=\"CycleCloud\""), "");
                return;
            }
            String query = uri.getRawQuery();
            if (query != null && !query.equals("nodes=true") && !query.equals("nodes=false")) {
                answer(exchange, 400, Map.of(), "");
                return;
            }
            Answer next = queued.poll();
            if (next != null) {
                answer(exchange, next.status(), next.headers(), next.body().replace("{authorization}", authorization));
                return;
            }
            String cluster = URLDecoder.decode(status.group(1).replace("+", "%2B"), StandardCharsets.UTF_8);
            if (forbidden.contains(cluster)) {
                answer(exchange, 403, Map.of(), "");
                return;
            }
            String body = clusters.get(cluster);
            if (body == null) {
                answer(exchange, 404, Map.of(), "");
                return;
            }
            answer(exchange, 200, Map.of("Content-Type", "application/json"), body);
        }
    }

    private static void answer(HttpExchange exchange, int status, Map<String, String> headers, String body)
            throws IOException {
        headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
