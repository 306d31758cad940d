package dev.gantry.backend.aks.internal.kube;

import dev.gantry.http.RetryAfter;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Honours a 429's {@code Retry-After}: the request is sent again once the wait the API server asked for has passed.
 * The client's own retry reads the header by its exact spelling, which the JDK's HTTP client lower-cases, so it
 * would back off 250 ms where the server asked for seconds. A wait longer than {@link #LONGEST} is left to the
 * client's bounded retry, which then fails naming the request. Each resend is one more request counted.
 */
final class ThrottleWait implements Interceptor {
    static final String NAME = "gantry-retry-after";
    static final Duration LONGEST = Duration.ofSeconds(60);
    private final Runnable resent;

    ThrottleWait(Runnable resent) {
        this.resent = resent;
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        if (response.code() != 429) {
            return CompletableFuture.completedFuture(false);
        }
        Optional<Duration> wait = header(response.headers(), "Retry-After")
                .flatMap(value -> RetryAfter.parse(value, Instant.now()))
                .filter(duration -> duration.compareTo(LONGEST) <= 0);
        if (wait.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        return CompletableFuture.supplyAsync(() -> {
            resent.run();
            return true;
        }, CompletableFuture.delayedExecutor(wait.get().toMillis(), TimeUnit.MILLISECONDS));
    }

    private static Optional<String> header(Map<String, List<String>> headers, String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
                .map(e -> e.getValue().get(0)).findFirst();
    }
}
