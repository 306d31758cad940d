package dev.gantry.backend.aks.internal.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which watches have a stream open now, seen on the wire: a watch request answered {@code 200} is open until its body
 * ends (the server closed it, the connection broke, or the client cancelled it). The informers' own
 * {@code isWatching()} cannot say this for HTTP watches: it turns true only once the first event arrives, so a quiet
 * watch would look like one reconnecting. Keyed by the watched collection's path
 * ({@code /api/v1/namespaces/NS/pods}); a newer stream of a path replaces the older one, whose end then changes
 * nothing.
 */
public final class WatchStreams implements Interceptor {
    static final String NAME = "gantry-watch-streams";
    private final Map<String, Object> openByPath = new ConcurrentHashMap<>();

    /** A watch's body reaches the client as ASCII ({@link AsciiWatchStream} says why). */
    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
            HttpRequest request) {
        return isWatch(request) ? new AsciiWatchStream(consumer) : consumer;
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        if (!isWatch(request)) {
            return;
        }
        String path = request.uri().getPath();
        if (response.code() != 200 || !(response.body() instanceof AsyncBody body)) {
            return;
        }
        Object stream = new Object();
        openByPath.put(path, stream);
        body.done().whenComplete((ignored, failure) -> openByPath.remove(path, stream));
    }

    private static boolean isWatch(HttpRequest request) {
        String query = request.uri().getRawQuery();
        return query != null && List.of(query.split("&")).contains("watch=true");
    }

    /** Whether a watch of the collection at {@code path} has a stream open now. */
    public boolean open(String path) {
        return openByPath.containsKey(path);
    }
}
