package dev.gantry.backend.batch.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The fake's HTTP front: reads a request (over 1 MB is {@code 413 RequestBodyTooLarge}), records it, routes it to
 * Batch's operation, checks {@code api-version} and the caller's authentication, applies planned faults, runs the
 * route under the state's lock, and answers with Batch's headers ({@code request-id}, {@code client-request-id}
 * when asked back) and, for errors, Batch's error body.
 */
final class BatchHttpFront implements HttpHandler {
    static final String API_VERSION = "2024-07-01.20.0";
    static final int MAX_BODY_BYTES = 1024 * 1024;

    private final FakeState state;
    private final Router router;
    private final AccountAuth auth;
    private final Faults faults;
    private final RequestLog log;

    BatchHttpFront(FakeState state, Router router, AccountAuth auth, Faults faults, RequestLog log) {
        this.state = state;
        this.router = router;
        this.auth = auth;
        this.faults = faults;
        this.log = log;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String requestId = UUID.randomUUID().toString();
        try (exchange) {
            byte[] body = readBody(exchange.getRequestBody());
            FakeRequest request = request(exchange, body == null ? new byte[0] : body);
            Router.Route route = router.route(request.method(), request.segments());
            String operation = route == null ? "unrouted" : route.operation();
            log.record(new RecordedRequest(operation, request.method(), request.rawPath(), request.query(),
                    request.headers(), new String(request.body(), StandardCharsets.UTF_8)));
            FakeResponse response;
            Faults.Fault fault = null;
            try {
                if (body == null) {
                    throw new BatchError(413, "RequestBodyTooLarge", "The request body is too large and exceeds "
                            + "the maximum permissible limit.", Map.of("MaxLimit", Integer.toString(MAX_BODY_BYTES)));
                }
                checkApiVersion(request);
                auth.check(request);
                if (route == null) {
                    throw new BatchError(400, "InvalidUri", "The requested URI does not represent any resource on "
                            + "the server.", Map.of("Method", request.method(), "Path", request.rawPath()));
                }
                fault = faults.take(operation);
                if (fault instanceof Faults.Refuse refuse) {
                    response = refused(refuse, requestId);
                } else {
                    synchronized (state) {
                        response = route.handler().apply(request);
                    }
                }
            } catch (BatchError e) {
                response = FakeResponse.json(e.status, ErrorBody.body(e, state.baseUrl, requestId));
            }
            if (fault instanceof Faults.DropAfterApply) {
                return; // closing the exchange before any header is sent drops the connection
            }
            if (fault instanceof Faults.SlowAfterApply slow) {
                sleep(slow.delay().toMillis());
            }
            send(exchange, request, response, requestId);
        }
    }

    private FakeResponse refused(Faults.Refuse refuse, String requestId) {
        FakeResponse response = FakeResponse.json(refuse.status(), ErrorBody.body(
                new BatchError(refuse.status(), refuse.code(), refuse.message()), state.baseUrl, requestId));
        if (refuse.retryAfter() != null) {
            response.header("Retry-After", Faults.retryAfterValue(refuse));
        }
        return response;
    }

    private static void checkApiVersion(FakeRequest request) {
        String version = request.param("api-version");
        if (version == null) {
            throw new BatchError(400, "MissingRequiredQueryParameter", "A query parameter that's mandatory for this "
                    + "request is not specified.", Map.of("QueryParameterName", "api-version"));
        }
        if (!version.equals(API_VERSION)) {
            throw BatchError.invalidQuery("api-version", version, "the fake speaks Batch API " + API_VERSION
                    + " only; this version is unknown to it");
        }
    }

    private void send(HttpExchange exchange, FakeRequest request, FakeResponse response, String requestId)
            throws IOException {
        var headers = exchange.getResponseHeaders();
        headers.set("request-id", requestId);
        headers.set("DataServiceVersion", "3.0");
        String clientRequestId = request.header("client-request-id");
        if (clientRequestId != null && "true".equalsIgnoreCase(request.header("return-client-request-id"))) {
            headers.set("client-request-id", clientRequestId);
        }
        response.headers.forEach((name, value) -> {
            if (!name.equals("Content-Length")) {
                headers.set(name, value);
            }
        });
        boolean noBody = request.method().equals("HEAD") || response.body.length == 0;
        if (request.method().equals("HEAD") && response.headers.containsKey("Content-Length")) {
            headers.set("Content-Length", response.headers.get("Content-Length"));
        }
        exchange.sendResponseHeaders(response.status, noBody ? -1 : response.body.length);
        if (!noBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body);
            }
        }
    }

    private static FakeRequest request(HttpExchange exchange, byte[] body) {
        String rawPath = exchange.getRequestURI().getRawPath();
        List<String> segments = new ArrayList<>();
        for (String part : rawPath.split("/")) {
            if (!part.isEmpty()) {
                segments.add(URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        String rawQuery = exchange.getRequestURI().getRawQuery();
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int equals = pair.indexOf('=');
                String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
                String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1),
                        StandardCharsets.UTF_8);
                query.put(name, value);
            }
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((name, values) ->
                headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        return new FakeRequest(exchange.getRequestMethod(), rawPath, List.copyOf(segments), rawQuery,
                query, headers, body);
    }

    /** The body, or null when it is larger than Batch takes. */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
            in.transferTo(OutputStream.nullOutputStream());
            return null;
        }
        return body;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
