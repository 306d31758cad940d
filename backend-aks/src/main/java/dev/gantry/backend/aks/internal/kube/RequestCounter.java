package dev.gantry.backend.aks.internal.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every HTTP request the client sends, retries included; a watch or a log stream counts once per connection,
 * since it is one request however long it stays open.
 */
final class RequestCounter implements Interceptor {
    static final String NAME = "gantry-request-counter";
    private final AtomicLong requests = new AtomicLong();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        requests.incrementAndGet();
    }

    /** A request sent again by an interceptor, which the client does not pass through {@link #before}. */
    void resent() {
        requests.incrementAndGet();
    }

    long requests() {
        return requests.get();
    }
}
