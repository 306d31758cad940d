package dev.gantry.backend.aks.testcluster;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A watch served as kube-apiserver serves one to client-go and kubectl: a {@code 200} whose chunked body carries one
 * JSON watch event per line, for as long as the client keeps the connection. The CRUD store's watch writes its
 * events to a {@link WebSocket}; this is that socket for a plain HTTP request, so the same watch machinery serves
 * both forms.
 */
public final class StreamedWatch implements WebSocket {
    private final RecordedRequest request;
    private final HttpServerResponse response;
    private final AtomicBoolean open = new AtomicBoolean(true);

    /** Whether the request is a watch that asks for a stream, not a WebSocket. */
    public static boolean wanted(HttpServerRequest request) {
        return "true".equals(request.getParam("watch")) && !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
    }

    /** The request as Fabric8's mock dispatchers take it (a watch has no body). */
    static RecordedRequest recorded(HttpServerRequest request) {
        return new RecordedRequest(request.version().alpnName().toUpperCase(Locale.ROOT),
                HttpMethod.fromVertx(request.method()), request.uri(),
                Headers.builder().addAll(request.headers()).build(), new io.fabric8.mockwebserver.http.Buffer());
    }

    /**
     * Serves the watch the dispatcher answers as a stream, its headers sent at once as kube-apiserver flushes them;
     * the watch's close runs on {@code closer}, off the event loop. An answer without a watch (an error) is sent as
     * it is, and empty is returned.
     */
    public static Optional<StreamedWatch> serve(HttpServerRequest request,
            Function<RecordedRequest, MockResponse> dispatcher, Executor closer) {
        return serve(request, dispatcher, closer, watch -> { });
    }

    /**
     * As {@link #serve(HttpServerRequest, Function, Executor)}, calling {@code unwatch} with the dispatcher's watch
     * just before it is closed, so that the store stops sending to it first.
     */
    public static Optional<StreamedWatch> serve(HttpServerRequest request,
            Function<RecordedRequest, MockResponse> dispatcher, Executor closer, Consumer<Object> unwatch) {
        RecordedRequest recorded = recorded(request);
        MockResponse response = dispatcher.apply(recorded);
        WebSocketListener watch = response.getWebSocketListener();
        if (watch == null) {
            request.response().setStatusCode(response.code()).putHeader("Content-Type", "application/json")
                    .end(response.getBody() == null ? "" : response.getBody().readUtf8());
            return Optional.empty();
        }
        StreamedWatch stream = new StreamedWatch(recorded, request.response());
        request.response().writeHead();
        stream.onClosed(() -> closer.execute(() -> {
            unwatch.accept(watch);
            watch.onClosed(stream, 1000, "");
        }));
        watch.onOpen(stream, response);
        return Optional.of(stream);
    }

    StreamedWatch(RecordedRequest request, HttpServerResponse response) {
        this.request = request;
        this.response = response;
        response.setStatusCode(200).putHeader("Content-Type", "application/json").setChunked(true);
    }

    /** Runs {@code onGone} once when the client closes the connection (or the server ends it). */
    void onClosed(Runnable onGone) {
        response.closeHandler(v -> {
            if (open.compareAndSet(true, false)) {
                onGone.run();
            }
        });
    }

    @Override
    public RecordedRequest request() {
        return request;
    }

    @Override
    public boolean send(String event) {
        return send((event + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean send(byte[] event) {
        if (!open.get()) {
            return false;
        }
        try {
            response.write(Buffer.buffer(event));
            return true;
        } catch (IllegalStateException closed) {
            return false; // the client went away between the check and the write
        }
    }

    /** Ends the stream, as the API server does when a watch times out or its history is gone. */
    @Override
    public boolean close(int code, String reason) {
        if (!open.compareAndSet(true, false)) {
            return false;
        }
        try {
            response.end();
        } catch (IllegalStateException closed) {
            // Already closed by the client.
        }
        return true;
    }
}
