package dev.gantry.backend.aks.testcluster;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A watch served as kube-apiserver serves one to client-go and kubectl: a {@code 200} whose chunked body carries one
 * JSON watch event per line, for as long as the client keeps the connection. The CRUD store's watch writes its
 * events to a {@link WebSocket}; this is that socket for a plain HTTP request, so the same watch machinery serves
 * both forms.
 */
final class StreamedWatch implements WebSocket {
    private final RecordedRequest request;
    private final HttpServerResponse response;
    private final AtomicBoolean open = new AtomicBoolean(true);

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
