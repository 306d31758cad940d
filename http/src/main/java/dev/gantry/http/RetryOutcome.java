package dev.gantry.http;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a call ended after its retries: the last response, its status, how many attempts were made, and whether the
 * call got an answer it does not retry or gave up on one it does.
 *
 * @param response the last attempt's response
 * @param status its HTTP status
 * @param attempts how many attempts were made, the last one included
 * @param ending why no further attempt was made
 * @param askedWait the wait the last response asked for in {@code Retry-After}, if it asked
 * @param <R> the client's response type
 */
public record RetryOutcome<R>(R response, int status, int attempts, Ending ending, Optional<Duration> askedWait) {
    /** Why a call made no further attempt. */
    public enum Ending {
        /** The status is not one that is retried (200, 404, ...): the caller reads it. */
        ANSWERED,
        /** The status is retried, but the bound on attempts is reached. */
        ATTEMPTS_USED_UP,
        /** The server asked for a longer wait than the policy waits, and the policy gives up rather than shorten it. */
        WAIT_TOO_LONG
    }

    public RetryOutcome {
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(askedWait, "askedWait");
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
    }

    /** Whether the last status is one the policy retries, and the call stopped retrying it. */
    public boolean gaveUp() {
        return ending != Ending.ANSWERED;
    }

    /**
     * For a message: {@code HTTP 503 3 times}, {@code HTTP 429 asking to retry after 3600s}, or {@code HTTP 404}
     * for an answer that was not retried.
     */
    public String reason() {
        return switch (ending) {
            case ANSWERED -> "HTTP " + status;
            case ATTEMPTS_USED_UP -> "HTTP " + status + " " + attempts + (attempts == 1 ? " time" : " times");
            case WAIT_TOO_LONG -> "HTTP " + status + " asking to retry after "
                    + askedWait.map(RetryOutcome::seconds).orElse("?");
        };
    }

    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }
}
