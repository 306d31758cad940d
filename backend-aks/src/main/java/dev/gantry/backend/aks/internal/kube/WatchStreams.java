package dev.gantry.backend.aks.internal.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which watches have a stream open now, seen on the wire: a watch request answered {@code 200} is open until its body
 * ends (the server closed it, the connection broke, or the client cancelled it). The informers' own
 * {@code isWatching()} cannot say this for HTTP watches: it turns true only once the first event arrives, so a quiet
 * watch would look like one reconnecting.
 *
 * <p>Keyed by the watched collection's path ({@code /api/v1/namespaces/NS/pods}) and the watch's label and field
 * selectors, because one client watches the same path for different ends: a log follow waits for its pod to start
 * through a watch of the pods' path with a field selector on the pod's name, and that watch's end says nothing about
 * the informers' watch of all Gantry's pods (taking one for the other left statuses UNKNOWN, "reconnecting", for
 * minutes after a follow, while the informers' stream delivered every event). A newer stream of a key replaces the
 * older one, whose end then changes nothing.
 */
public final class WatchStreams implements Interceptor {
    static final String NAME = "gantry-watch-streams";
    private final Map<String, Object> openByKey = new ConcurrentHashMap<>();

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
        if (response.code() != 200 || !(response.body() instanceof AsyncBody body)) {
            return;
        }
        Map<String, String> query = query(request);
        String key = key(request.uri().getPath(), query.getOrDefault("labelSelector", ""),
                query.getOrDefault("fieldSelector", ""));
        Object stream = new Object();
        openByKey.put(key, stream);
        body.done().whenComplete((ignored, failure) -> openByKey.remove(key, stream));
    }

    private static boolean isWatch(HttpRequest request) {
        return "true".equals(query(request).get("watch"));
    }

    /** The request's query parameters, decoded (the last of a repeated one). */
    private static Map<String, String> query(HttpRequest request) {
        String raw = request.uri().getRawQuery();
        Map<String, String> parameters = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            parameters.put(URLDecoder.decode(name, StandardCharsets.UTF_8),
                    URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return parameters;
    }

    private static String key(String path, String labelSelector, String fieldSelector) {
        return path + "\n" + labelSelector + "\n" + fieldSelector;
    }

    /**
     * Whether a watch of the collection at {@code path}, selected by {@code labelSelector} and by no field selector,
     * has a stream open now.
     */
    public boolean open(String path, String labelSelector) {
        return openByKey.containsKey(key(path, labelSelector, ""));
    }
}
