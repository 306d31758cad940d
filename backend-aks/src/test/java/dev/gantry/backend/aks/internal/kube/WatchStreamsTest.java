package dev.gantry.backend.aks.internal.kube;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Which watch streams are open, as the interceptor sees their answers and their bodies' ends. */
class WatchStreamsTest {
    private static final String PODS = "/api/v1/namespaces/gantry/pods";
    private static final String GANTRY = "app.kubernetes.io/managed-by=gantry";
    private static final String INFORMER_QUERY = "?allowWatchBookmarks=true&labelSelector="
            + "app.kubernetes.io%2Fmanaged-by%3Dgantry&resourceVersion=98&timeoutSeconds=600&watch=true";

    private final WatchStreams streams = new WatchStreams();

    @Test
    void aWatchAnsweredIsOpenUntilItsBodyEnds() {
        Body body = answer(PODS + INFORMER_QUERY, 200);
        assertTrue(streams.open(PODS, GANTRY));
        body.end();
        assertFalse(streams.open(PODS, GANTRY));
    }

    /**
     * A log follow waits for its pod through a watch of the same path with a field selector on the pod's name; its
     * end must not make the informers' stream look closed (it made statuses UNKNOWN, "reconnecting", for minutes).
     */
    @Test
    void theEndOfAWatchWithAnotherSelectorLeavesTheInformersStreamOpen() {
        answer(PODS + INFORMER_QUERY, 200);
        Body podWait = answer(PODS + "?fieldSelector=metadata.name%3Djob-0-abcde&resourceVersion=120"
                + "&timeoutSeconds=600&watch=true", 200);
        assertTrue(streams.open(PODS, GANTRY));
        podWait.end();
        assertTrue(streams.open(PODS, GANTRY), "the informers' watch is still open");
    }

    @Test
    void aNewerStreamOfTheSameWatchOutlivesTheEndOfTheOlder() {
        Body older = answer(PODS + INFORMER_QUERY, 200);
        Body newer = answer(PODS + INFORMER_QUERY.replace("resourceVersion=98", "resourceVersion=140"), 200);
        older.end();
        assertTrue(streams.open(PODS, GANTRY));
        newer.end();
        assertFalse(streams.open(PODS, GANTRY));
    }

    @Test
    void aRefusedWatchOrAPlainListOpensNothing() {
        answer(PODS + INFORMER_QUERY, 410);
        answer(PODS + "?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dgantry&limit=500", 200);
        assertFalse(streams.open(PODS, GANTRY));
    }

    private Body answer(String pathAndQuery, int code) {
        HttpRequest request = new StandardHttpRequest(Map.of(), URI.create("https://127.0.0.1:6443" + pathAndQuery),
                "GET", null);
        Body body = new Body();
        streams.after(request, new Response(request, code, body), (chunks, asyncBody) -> { });
        return body;
    }

    private static final class Body implements AsyncBody {
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        void end() {
            done.complete(null);
        }

        @Override
        public void consume() {
        }

        @Override
        public CompletableFuture<Void> done() {
            return done;
        }

        @Override
        public void cancel() {
            done.cancel(false);
        }
    }

    private record Response(HttpRequest request, int code, AsyncBody body) implements HttpResponse<AsyncBody> {
        @Override
        public List<String> headers(String key) {
            return List.of();
        }

        @Override
        public Map<String, List<String>> headers() {
            return Map.of();
        }

        @Override
        public Optional<HttpResponse<?>> previousResponse() {
            return Optional.empty();
        }
    }
}
