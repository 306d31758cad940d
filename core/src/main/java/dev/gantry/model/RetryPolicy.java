package dev.gantry.model;

import java.time.Duration;
import java.util.Objects;

/**
 * How often a failed step is tried again. The wait doubles per attempt ({@code backoff}, then twice it, ...) so that a
 * flaky dependency (quota, a busy registry) gets time to recover without a long first wait.
 *
 * @param count how many times a failed step is tried again, 0 or more
 * @param backoff the wait before the first retry; not negative
 */
public record RetryPolicy(int count, Duration backoff) {
    /** The wait before the first retry when a spec gives none. */
    public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(30);
    /** No retries: a failed step fails at once. */
    public static final RetryPolicy NONE = new RetryPolicy(0, DEFAULT_BACKOFF);

    /**
     * Checks the count and the wait.
     *
     * @param count the retries, 0 or more
     * @param backoff the first wait, not negative
     * @throws NullPointerException when {@code backoff} is null
     * @throws IllegalArgumentException when {@code count} or {@code backoff} is negative
     */
    public RetryPolicy {
        Objects.requireNonNull(backoff, "backoff");
        if (count < 0) {
            throw new IllegalArgumentException("retries.count must be 0 or more, got " + count);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("retries.backoff must not be negative, got " + backoff);
        }
    }

    /**
     * The wait before retry {@code attempt}: {@code backoff * 2^(attempt-1)}.
     *
     * @param attempt the retry, 1 for the first, up to {@code count}
     * @return the wait
     * @throws IllegalArgumentException when {@code attempt} is outside 1 to {@code count}
     */
    public Duration delayBefore(int attempt) {
        if (attempt < 1 || attempt > count) {
            throw new IllegalArgumentException("attempt must be between 1 and " + count + ", got " + attempt);
        }
        // Capped shift: 2^30 times any sensible backoff is already far beyond a run's life.
        return backoff.multipliedBy(1L << Math.min(attempt - 1, 30));
    }
}
