package dev.gantry.azure.fakes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsServer;
import dev.gantry.azure.storage.Blobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local Blob service for the containers Gantry writes task secrets to, following the Blob REST API as far as Gantry
 * uses it: Put Blob (block blobs), Get Blob, Delete Blob and List Blobs ({@code ?restype=container&comp=list}, paged
 * by {@code NextMarker}). Path-style URLs, as the Storage emulator serves them:
 * {@code https://127.0.0.1:PORT/ACCOUNT/CONTAINER/NAME} ({@link #containerUrl}).
 *
 * <p>It honours what Storage checks: a bearer token for {@code https://storage.azure.com/.default} from
 * {@link FakeTokenIssuer} (else 401 {@code InvalidAuthenticationInfo}), {@code x-ms-version} and {@code x-ms-date}
 * (else 400 {@code MissingRequiredHeader}), {@code x-ms-blob-type: BlockBlob} on a put (else 400
 * {@code MissingRequiredHeader} or {@code InvalidHeaderValue}); it answers 201 to a put, 202 to a delete, 404
 * {@code BlobNotFound} or {@code ContainerNotFound} with the {@code x-ms-error-code} header and an XML error body. It
 * records every request, body included ({@link #requests()}), so a test can check where a secret's value went.
 */
public final class BlobFake implements AutoCloseable {
    /** The storage account the fake serves. */
    public static final String ACCOUNT = "gantrysecrets";

    /** One request as the fake received it; header names in lower case. */
    public record Request(String method, String path, Map<String, String> query, Map<String, String> headers,
            byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private record Stored(byte[] content, Instant lastModified) {
    }

    private final HttpsServer server;
    private final FakeTokenIssuer issuer = new FakeTokenIssuer();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, TreeMap<String, Stored>> containers = new LinkedHashMap<>();
    private int pageSize = 2;
    private int busyAnswersLeft;

    public BlobFake() throws IOException {
        server = LocalHttps.start(this::handle);
    }

    /** Creates a container (empty), as {@code az storage container create} would; returns its URL. */
    public synchronized String createContainer(String name) {
        containers.putIfAbsent(name, new TreeMap<>());
        return containerUrl(name);
    }

    public String containerUrl(String container) {
        return LocalHttps.baseUrl(server) + "/" + ACCOUNT + "/" + container;
    }

    /** The production client, reaching this fake with tokens from its {@link #issuer()}. */
    public Blobs blobs() {
        return new Blobs(() -> issuer, LocalHttps.trustingHttpClient());
    }

    /** The fake Entra ID whose tokens this fake accepts. */
    public FakeTokenIssuer issuer() {
        return issuer;
    }

    /** A blob's content as stored, for a test or for the Batch fake's node agent that downloads resource files. */
    public synchronized Optional<byte[]> content(String container, String name) {
        TreeMap<String, Stored> blobs = containers.get(container);
        Stored stored = blobs == null ? null : blobs.get(name);
        return stored == null ? Optional.empty() : Optional.of(stored.content().clone());
    }

    /** The names of a container's blobs, sorted. */
    public synchronized List<String> names(String container) {
        TreeMap<String, Stored> blobs = containers.get(container);
        return blobs == null ? List.of() : List.copyOf(blobs.keySet());
    }

    /** How many blobs one listing page holds (2 unless told, so that listing follows a marker). */
    public synchronized void pageSize(int size) {
        pageSize = size;
    }

    /** The next {@code times} requests answer 503 {@code ServerBusy}, as Storage does under load. */
    public synchronized void busy(int times) {
        busyAnswersLeft = times;
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
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    String.join(",", values)));
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            String path = exchange.getRequestURI().getPath();
            Request request = new Request(exchange.getRequestMethod(), path, query, headers,
                    exchange.getRequestBody().readAllBytes());
            requests.add(request);
            if (!FakeTokenIssuer.scopeOf(headers.get("authorization")).filter(Blobs.STORAGE_SCOPE::equals)
                    .isPresent()) {
                error(exchange, 401, "InvalidAuthenticationInfo", "Authentication information is not given in the "
                        + "correct format. Check the value of Authorization header.");
                return;
            }
            for (String required : List.of("x-ms-version", "x-ms-date")) {
                if (!headers.containsKey(required)) {
                    error(exchange, 400, "MissingRequiredHeader", "An HTTP header that's mandatory for this "
                            + "request is not specified. HeaderName: " + required);
                    return;
                }
            }
            if (busyAnswersLeft > 0) {
                busyAnswersLeft--;
                error(exchange, 503, "ServerBusy", "The server is currently unable to receive requests. Please retry "
                        + "your request.");
                return;
            }
            route(exchange, request);
        }
    }

    private void route(HttpExchange exchange, Request request) throws IOException {
        String[] parts = request.path().substring(1).split("/", 3);
        if (parts.length < 2 || !parts[0].equals(ACCOUNT)) {
            error(exchange, 400, "InvalidUri", "The requested URI does not represent any resource on the server.");
            return;
        }
        TreeMap<String, Stored> container = containers.get(parts[1]);
        if (container == null) {
            error(exchange, 404, "ContainerNotFound", "The specified container does not exist.");
            return;
        }
        if (parts.length == 2) {
            if (request.method().equals("GET") && "container".equals(request.query().get("restype"))
                    && "list".equals(request.query().get("comp"))) {
                list(exchange, container, request.query());
            } else {
                error(exchange, 400, "UnsupportedHttpVerb", "The fake serves List Blobs only on a container.");
            }
            return;
        }
        String name = parts[2];
        switch (request.method()) {
            case "PUT" -> put(exchange, container, name, request);
            case "GET" -> get(exchange, container, name);
            case "DELETE" -> {
                if (container.remove(name) == null) {
                    error(exchange, 404, "BlobNotFound", "The specified blob does not exist.");
                } else {
                    send(exchange, 202, new byte[0]);
                }
            }
            default -> error(exchange, 405, "UnsupportedHttpVerb", "The resource doesn't support the specified HTTP "
                    + "verb.");
        }
    }

    private void put(HttpExchange exchange, TreeMap<String, Stored> container, String name, Request request)
            throws IOException {
        String type = request.headers().get("x-ms-blob-type");
        if (type == null) {
            error(exchange, 400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not "
                    + "specified. HeaderName: x-ms-blob-type");
            return;
        }
        if (!type.equals("BlockBlob")) {
            error(exchange, 400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct "
                    + "format. HeaderName: x-ms-blob-type, HeaderValue: " + type + " (the fake serves block blobs)");
            return;
        }
        container.put(name, new Stored(request.body().clone(), Instant.now()));
        exchange.getResponseHeaders().add("ETag", "\"0x" + Long.toHexString(System.nanoTime()) + "\"");
        send(exchange, 201, new byte[0]);
    }

    private void get(HttpExchange exchange, TreeMap<String, Stored> container, String name) throws IOException {
        Stored stored = container.get(name);
        if (stored == null) {
            error(exchange, 404, "BlobNotFound", "The specified blob does not exist.");
            return;
        }
        exchange.getResponseHeaders().add("x-ms-blob-type", "BlockBlob");
        exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
        send(exchange, 200, stored.content());
    }

    private void list(HttpExchange exchange, TreeMap<String, Stored> container, Map<String, String> query)
            throws IOException {
        String prefix = query.getOrDefault("prefix", "");
        String marker = query.getOrDefault("marker", "");
        List<Map.Entry<String, Stored>> matching = new ArrayList<>();
        container.forEach((name, stored) -> {
            if (name.startsWith(prefix) && name.compareTo(marker) >= 0) {
                matching.add(Map.entry(name, stored));
            }
        });
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<EnumerationResults "
                + "ServiceEndpoint=\"" + LocalHttps.baseUrl(server) + "/" + ACCOUNT + "/\">");
        xml.append("<Prefix>").append(escape(prefix)).append("</Prefix><Blobs>");
        for (Map.Entry<String, Stored> blob : matching.subList(0, Math.min(pageSize, matching.size()))) {
            xml.append("<Blob><Name>").append(escape(blob.getKey())).append("</Name><Properties><Last-Modified>")
                    .append(DateTimeFormatter.RFC_1123_DATE_TIME.format(blob.getValue().lastModified()
                            .atZone(ZoneOffset.UTC)))
                    .append("</Last-Modified><Content-Length>").append(blob.getValue().content().length)
                    .append("</Content-Length><BlobType>BlockBlob</BlobType></Properties></Blob>");
        }
        xml.append("</Blobs><NextMarker>");
        if (matching.size() > pageSize) {
            xml.append(escape(matching.get(pageSize).getKey()));
        }
        xml.append("</NextMarker></EnumerationResults>");
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        send(exchange, 200, xml.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        exchange.getResponseHeaders().add("x-ms-error-code", code);
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        send(exchange, status, ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code><Message>"
                + escape(message) + "\nRequestId:" + UUID.randomUUID() + "\nTime:" + Instant.now()
                + "</Message></Error>").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("x-ms-request-id", UUID.randomUUID().toString());
        exchange.getResponseHeaders().add("x-ms-version", Blobs.API_VERSION);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
