package dev.gantry.backend.batch.internal.rest;

import com.microsoft.rest.retry.RetryStrategy;
import okhttp3.Response;

/**
 * client-runtime's retry handler with a strategy that never retries. Without one, {@code RestClient} retries 408 and
 * 5xx (but not 501 and 505) three more times with no wait between tries and never waits out a 429; Gantry's own policy
 * (gantry-http's {@code HttpRetry}, around each call) is the only one, so that every retry is bounded, waits as
 * {@code Retry-After} says, and is counted once.
 */
final class NoRetries extends RetryStrategy {
    NoRetries() {
        super("gantry-no-retries", false);
    }

    @Override
    public boolean shouldRetry(int retryCount, Response response) {
        return false;
    }
}
