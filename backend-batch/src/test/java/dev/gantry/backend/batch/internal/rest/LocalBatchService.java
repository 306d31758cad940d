package dev.gantry.backend.batch.internal.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.gantry.azure.fakes.LocalHttps;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny local HTTP(S) server for the client's tests: it records every request as received (method, raw path and
 * query, headers, body) and answers as the test says ({@link #answer}); by default 200 with {@code {}}.
 */
final class LocalBatchService implements AutoCloseable {
    /** One request as it arrived; header names in lower case. */
    record Received(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** How the server answers one request. */
    @FunctionalInterface
    interface Answer {
        void answer(HttpExchange exchange, Received request) throws IOException;
    }

    private final HttpServer server;
    private final String url;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Answer answer = (exchange, request) -> json(exchange, 200, "{}");

    private LocalBatchService(HttpServer server, String url) {
        this.server = server;
        this.url = url;
        server.createContext("/", this::handle);
    }

    static LocalBatchService http() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        LocalBatchService service = new LocalBatchService(server, "http://127.0.0.1:" + server.getAddress().getPort());
        server.start();
        return service;
    }

    /** HTTPS with the local fakes' throwaway certificate ({@link LocalHttps}). */
    static LocalBatchService https() throws IOException {
        HttpsServer server = LocalHttps.start(exchange -> exchange.close());
        // LocalHttps starts the server with a handler at "/"; this service's recording one takes its place.
        server.removeContext("/");
        return new LocalBatchService(server, LocalHttps.baseUrl(server));
    }

    String url() {
        return url;
    }

    void answer(Answer answer) {
        this.answer = answer;
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** Answers with Batch's error body ({@code odata.error}'s shape as the service sends it). */
    static void batchError(HttpExchange exchange, int status, String code, String message) throws IOException {
        json(exchange, status, "{\"odata.metadata\":\"https://account.region.batch.azure.com/$metadata#"
                + "Microsoft.Azure.Batch.Protocol.Entities.Container.errors/@Element\",\"code\":\"" + code
                + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"" + message + "\\nRequestId:00000000-0000-0000-"
                + "0000-000000000001\\nTime:2026-12-05T10:00:00.0000000Z\"}}");
    }

    static void json(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json;odata=minimalmetadata");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    List.copyOf(values)));
            Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), headers, exchange.getRequestBody().readAllBytes());
            received.add(request);
            answer.answer(exchange, request);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
