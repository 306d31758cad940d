package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The test cluster's API server: HTTPS on a loopback address, in front of Fabric8's CRUD store (through its Vert.x
 * request handler, so watches are the mock server's own). In front of CRUD it authenticates bearer tokens, counts
 * every request per user, answers 403 in RBAC's words for what a user's Role does not allow, and serves what CRUD
 * lacks: {@code /version}, {@code pods/log} (with {@code tailLines} and {@code follow}) and the eviction subresource.
 */
final class ApiServer implements AutoCloseable {
    /** Who a bearer token is: the Role-bound user, or a user the Role does not restrict (the test's admin). */
    record Caller(String user, Optional<DocumentedRole> role) {
    }

    private static final String VERSION = Json.object("major", "1", "minor", "32", "gitVersion", "v1.32.0",
            "gitCommit", "gantry-test-cluster", "gitTreeState", "clean", "buildDate", "2024-12-11T00:00:00Z",
            "goVersion", "go1.23.3", "compiler", "gc", "platform", "linux/amd64");

    private final ObjectStore store;
    private final PodLogs logs;
    private final Disruptions disruptions;
    private final RequestCounter counter;
    private final Map<String, Caller> callersByToken;
    private final Vertx vertx = Vertx.vertx();
    private final ExecutorService streams = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "test-apiserver-logs");
        thread.setDaemon(true);
        return thread;
    });
    private HttpServer server;
    /** Requests of this verb and resource ({@code verb resource}) are dropped unanswered; empty: none. */
    private volatile String dropped = "";
    /** Watches from a resourceVersion below this are answered 410 Gone, as after etcd compacted its history. */
    private volatile long compactedBelow;

    ApiServer(ObjectStore store, PodLogs logs, Disruptions disruptions, RequestCounter counter,
            Map<String, Caller> callersByToken) {
        this.store = store;
        this.logs = logs;
        this.disruptions = disruptions;
        this.counter = counter;
        this.callersByToken = Map.copyOf(callersByToken);
    }

    /** Listens on {@code host:port} (0: any free port); returns the port. */
    int start(String host, int port, TestCertificate certificate) {
        HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port).setSsl(true)
                .setKeyCertOptions(new PemKeyCertOptions()
                        .setCertValue(Buffer.buffer(certificate.certificatePem()))
                        .setKeyValue(Buffer.buffer(certificate.privateKeyPem())));
        HttpServerRequestHandler crud = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                ApiRequest api = ApiRequest.parse(request.getMethod(), request.getPath());
                Optional<Long> expired = expiredWatchVersion(api);
                if (expired.isPresent()) {
                    return new MockResponse().withWebSocketUpgrade(new Expired(expired.get(), compactedBelow));
                }
                MockResponse response = store.dispatch(request, ApiRequest.parse(request.getMethod(),
                        request.getPath()));
                WebSocketListener watch = response.getWebSocketListener();
                return watch == null ? response : response.withWebSocketUpgrade(new ClosingOffTheEventLoop(watch));
            }
        };
        server = vertx.createHttpServer(options).requestHandler(request -> route(request, crud));
        try {
            server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the test API server could not listen on " + host + ":" + port + ": " + e, e);
        }
        return server.actualPort();
    }

    /** From now on requests of this verb on this resource have their connection closed unanswered; blank: none. */
    void drop(String verb, String resource) {
        dropped = verb.isEmpty() ? "" : verb + " " + resource;
    }

    /** From now on a watch from a resourceVersion below {@code resourceVersion} is told its history is gone. */
    void compactBelow(long resourceVersion) {
        compactedBelow = resourceVersion;
    }

    private Optional<Long> expiredWatchVersion(ApiRequest api) {
        if (!api.resourceRequest() || !api.verb().equals("watch")) {
            return Optional.empty();
        }
        return api.parameter("resourceVersion").filter(v -> v.matches("[0-9]+")).map(Long::valueOf)
                .filter(v -> v > 0 && v < compactedBelow);
    }

    /**
     * What the API server sends a watch from a compacted resourceVersion: the watch opens, its one event is an
     * ERROR with the Status {@code 410 Expired} in kube-apiserver's words, and it closes; the client must list again.
     */
    private static final class Expired extends WebSocketListener {
        private final long asked;
        private final long oldest;

        Expired(long asked, long oldest) {
            this.asked = asked;
            this.oldest = oldest;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            webSocket.send(expiredEvent(asked, oldest));
            webSocket.close(1000, "");
        }
    }

    private static String expiredEvent(long asked, long oldest) {
        return Json.write(Json.map("type", "ERROR", "object", Json.read(status(410, "Expired",
                "too old resource version: " + asked + " (" + oldest + ")"), Map.class)));
    }

    private void route(HttpServerRequest request, HttpServerRequestHandler crud) {
        ApiRequest api = ApiRequest.parse(request.method().name(), request.uri());
        Caller caller = callerOf(request.getHeader("Authorization"));
        if (caller == null) {
            reply(request, 401, status(401, "Unauthorized", "Unauthorized"));
            return;
        }
        counter.record(caller.user(), api);
        if (!dropped.isEmpty() && dropped.equals(api.verb() + " " + api.resource())) {
            request.connection().close();
            return;
        }
        if (caller.role().isPresent() && !caller.role().get().allows(api)) {
            counter.recordForbidden(caller.user(), api);
            reply(request, 403, caller.role().get().forbiddenStatus(api));
            return;
        }
        if (api.path().equals("/version")) {
            reply(request, 200, VERSION);
        } else if (api.resource().equals("pods") && api.subresource().equals("log") && api.verb().equals("get")) {
            streams.execute(() -> serveLog(request, api));
        } else if (api.resource().equals("pods") && api.subresource().equals("eviction")
                && api.verb().equals("create")) {
            request.body().onSuccess(body -> streams.execute(() -> evict(request, api, body.toString())));
        } else if (StreamedWatch.wanted(request)) {
            serveStreamedWatch(request, api);
        } else {
            crud.handle(request);
        }
    }

    /**
     * A watch over a plain HTTP stream (client-go's and kubectl's form): the same CRUD watch as a WebSocket one,
     * writing its events as lines, the headers sent at once as kube-apiserver flushes them; a resourceVersion older
     * than the compacted history gets the one {@code 410 Expired} event and the end of the stream.
     */
    private void serveStreamedWatch(HttpServerRequest request, ApiRequest api) {
        Optional<Long> expired = expiredWatchVersion(api);
        if (expired.isPresent()) {
            StreamedWatch stream = new StreamedWatch(StreamedWatch.recorded(request), request.response());
            stream.send(expiredEvent(expired.get(), compactedBelow));
            stream.close(1000, "");
            return;
        }
        StreamedWatch.serve(request, recorded -> store.dispatch(recorded, api), streams, store::unwatch).ifPresent(stream ->
                store.deletedSince(stream.request().getPath()).forEach(stream::send));
    }

    /**
     * A watch whose close runs on another thread: Fabric8's watch listener waits for its sender to finish when the
     * client closes the watch, and its sender writes through the event loop that would be waiting (the loop stalls
     * for seconds, and every connection on it with it). A watch from a resourceVersion also gets the deletions since
     * then, which the CRUD watch does not replay.
     */
    private final class ClosingOffTheEventLoop extends WebSocketListener {
        private final WebSocketListener watch;

        ClosingOffTheEventLoop(WebSocketListener watch) {
            this.watch = watch;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            watch.onOpen(webSocket, response);
            store.deletedSince(webSocket.request().getPath()).forEach(webSocket::send);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            watch.onMessage(webSocket, text);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            streams.execute(() -> watch.onClosing(webSocket, code, reason));
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            streams.execute(() -> {
                store.unwatch(watch);
                watch.onClosed(webSocket, code, reason);
            });
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable t, Response response) {
            streams.execute(() -> {
                store.unwatch(watch);
                watch.onFailure(webSocket, t, response);
            });
        }
    }

    private Caller callerOf(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return null;
        }
        return callersByToken.get(authorization.substring("Bearer ".length()).trim());
    }

    private void evict(HttpServerRequest request, ApiRequest api, String body) {
        Map<?, ?> eviction = body.isBlank() ? Map.of() : Json.read(body, Map.class);
        Object deleteOptions = eviction.get("deleteOptions");
        DeleteOptions options = DeleteOptions.of(deleteOptions == null ? "" : Json.write(deleteOptions), api);
        if (disruptions.evict(api.namespace(), api.name(), options)) {
            reply(request, 201, Json.object("kind", "Status", "apiVersion", "v1", "metadata", Map.of(),
                    "status", "Success", "code", 201));
        } else {
            reply(request, 404, ObjectStore.notFound(api));
        }
    }

    private void serveLog(HttpServerRequest request, ApiRequest api) {
        Optional<Pod> found = store.get(Paths.pod(api.namespace(), api.name()), Pod.class);
        if (found.isEmpty()) {
            reply(request, 404, ObjectStore.notFound(api));
            return;
        }
        Pod pod = found.get();
        var containers = pod.getSpec().getContainers();
        Optional<String> asked = api.parameter("container");
        if (asked.isEmpty() && containers.size() != 1) {
            reply(request, 400, status(400, "BadRequest", "a container name must be specified for pod "
                    + api.name() + ", choose one of: " + containers.stream().map(c -> c.getName()).toList()));
            return;
        }
        String container = asked.orElse(containers.get(0).getName());
        if (containers.stream().noneMatch(c -> c.getName().equals(container))) {
            reply(request, 400, status(400, "BadRequest", "container " + container + " is not valid for pod "
                    + api.name()));
            return;
        }
        Path file = logs.file(api.namespace(), api.name(), pod.getMetadata().getUid(), container);
        if (!logs.started(file)) {
            reply(request, 400, status(400, "BadRequest", "container \"" + container + "\" in pod \"" + api.name()
                    + "\" is waiting to start: " + waitingReason(pod)));
            return;
        }
        Integer tailLines = api.parameter("tailLines").map(Integer::valueOf).orElse(null);
        HttpServerResponse response = request.response();
        response.putHeader("Content-Type", "text/plain").setChunked(true);
        try {
            if (api.parameter("follow").map("true"::equals).orElse(false)) {
                AtomicBoolean open = new AtomicBoolean(true);
                response.closeHandler(v -> open.set(false));
                logs.follow(file, tailLines, bytes -> response.write(Buffer.buffer(bytes)),
                        () -> open.get() && store.get(Paths.pod(api.namespace(), api.name()), Pod.class)
                                .map(p -> p.getMetadata().getUid().equals(pod.getMetadata().getUid()))
                                .orElse(false));
            } else {
                response.write(Buffer.buffer(PodLogs.tail(file, tailLines)));
            }
            response.end();
        } catch (IOException e) {
            response.reset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.reset();
        }
    }

    private static String waitingReason(Pod pod) {
        if (pod.getStatus() == null) {
            return "ContainerCreating";
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(s -> s.getState() != null && s.getState().getWaiting() != null)
                .map(s -> s.getState().getWaiting().getReason()).findFirst().orElse("ContainerCreating");
    }

    private static String status(int code, String reason, String message) {
        return Json.object("kind", "Status", "apiVersion", "v1", "metadata", Map.of(), "status", "Failure",
                "message", message, "reason", reason, "code", code);
    }

    private static void reply(HttpServerRequest request, int code, String json) {
        request.response().setStatusCode(code).putHeader("Content-Type", "application/json").end(json);
    }

    @Override
    public void close() {
        streams.shutdownNow();
        try {
            if (server != null) {
                server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Closing a test server: nothing to recover; the port is freed with the process at worst.
        }
    }
}
