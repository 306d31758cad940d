package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The fake's control endpoint, for a fake run as a process (scripts/test-batch.sh): plain HTTP on loopback, on a
 * port of its own, started only when asked ({@code BatchFakeMain --control}). Every answer is JSON; a refused request
 * is {@code 400} (or {@code 409}, below) with its reason in {@code error}.
 * <ul>
 *   <li>{@code GET /counts}: requests per operation id;</li>
 *   <li>{@code POST /preempt?pool=P&node=N} or {@code POST /preempt?job=J&task=T} (the node running that task):
 *       a Spot (low-priority) node only, as Batch preempts no dedicated node; a dedicated one is {@code 409} with
 *       {@code error} naming the node;</li>
 *   <li>{@code POST /unusable?pool=P&node=N};</li>
 *   <li>{@code POST /fault?operation=OP&kind=throttle|busy|error|drop|slow&times=N[&seconds=S][&form=seconds|date]};</li>
 *   <li>{@code POST /resize-error?pool=P&code=C&message=M&blocks=true|false};</li>
 *   <li>{@code POST /clear-faults}.</li>
 * </ul>
 */
final class ControlServer implements AutoCloseable {
    private final BatchFake fake;
    private final HttpServer server;

    ControlServer(BatchFake fake) throws IOException {
        this.fake = fake;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = dev.gantry.azure.fakes.LocalHttps.query(exchange.getRequestURI().getRawQuery());
            ObjectNode answer = Json.object();
            int status = 200;
            try {
                answer = answer(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath(), query);
            } catch (NotPreemptible e) {
                status = 409;
                answer.put("error", e.getMessage());
            } catch (RuntimeException e) {
                status = 400;
                answer.put("error", String.valueOf(e.getMessage()));
            }
            byte[] body = Json.bytes(answer);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private ObjectNode answer(String request, Map<String, String> q) {
        ObjectNode answer = Json.object();
        switch (request) {
            case "GET /counts" -> fake.counts().forEach(answer::put);
            case "POST /preempt" -> {
                String node = q.containsKey("task") ? fake.preemptNodeOf(required(q, "job"), q.get("task"))
                        : preempt(required(q, "pool"), required(q, "node"));
                answer.put("preempted", node);
            }
            case "POST /unusable" -> {
                fake.makeNodeUnusable(required(q, "pool"), required(q, "node"));
                answer.put("unusable", q.get("node"));
            }
            case "POST /fault" -> {
                fault(required(q, "operation"), required(q, "kind"), Integer.parseInt(q.getOrDefault("times", "1")),
                        Duration.ofSeconds(Long.parseLong(q.getOrDefault("seconds", "1"))), q.get("form"));
                answer.put("planned", q.get("kind"));
            }
            case "POST /resize-error" -> {
                fake.resizeError(required(q, "pool"), required(q, "code"), q.getOrDefault("message", q.get("code")),
                        Boolean.parseBoolean(q.getOrDefault("blocks", "true")));
                answer.put("resizeError", q.get("code"));
            }
            case "POST /clear-faults" -> {
                fake.faults().clear();
                answer.put("cleared", true);
            }
            default -> throw new IllegalArgumentException("no such control request: " + request + "; see "
                    + "ControlServer's documentation");
        }
        return answer;
    }

    private String preempt(String pool, String node) {
        fake.preemptNode(pool, node);
        return node;
    }

    private void fault(String operation, String kind, int times, Duration duration, String form) {
        Faults faults = fake.faults();
        switch (kind) {
            case "throttle" -> faults.throttle(operation, times, duration, "date".equals(form)
                    ? Faults.RetryAfterForm.HTTP_DATE : Faults.RetryAfterForm.SECONDS);
            case "busy" -> faults.serverBusy(operation, times);
            case "error" -> faults.serverError(operation, times);
            case "drop" -> faults.dropAfterApply(operation, times);
            case "slow" -> faults.slowAfterApply(operation, times, duration);
            default -> throw new IllegalArgumentException("kind must be throttle, busy, error, drop or slow, not "
                    + kind);
        }
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("the query parameter '" + name + "' is missing");
        }
        return value;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
