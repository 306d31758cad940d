package dev.gantry.backend.batch.internal.remote;

import com.microsoft.azure.batch.protocol.models.BatchError;
import com.microsoft.azure.batch.protocol.models.BatchErrorDetail;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import dev.gantry.http.HttpAnswer;
import dev.gantry.http.HttpRetry;
import dev.gantry.http.Jitter;
import dev.gantry.http.RetryOutcome;
import dev.gantry.http.Sleeper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import okhttp3.Headers;

/**
 * The one place every Batch protocol call goes through, one request at a time, with Gantry's one retry policy (the
 * connection itself never retries: {@code BatchConnection}); components reach an account's protocol client only
 * through {@link #on}'s {@link AccountCalls}:
 * <ul>
 *   <li>429, 500 and 503 are sent again, waiting as {@code Retry-After} says (seconds or an HTTP date) or backing off
 *       with jitter, within {@link Policy#attempts} and {@link Policy#longestWait} (gantry-http's {@link HttpRetry});
 *   </li>
 *   <li>a dropped or timed-out connection is sent again too: every call Gantry makes is idempotent by construction
 *       (pool, job and task ids come from keys, so a repeat meets {@code PoolExists}, {@code JobExists} or
 *       {@code TaskExists}, which the caller adopts);</li>
 *   <li>{@code ActiveJobAndScheduleQuotaReached} and {@code PoolQuotaReached} wait {@link Policy#quotaWait} and try
 *       again, at most {@link Policy#quotaAttempts} times, then end in {@code QUOTA_EXCEEDED};</li>
 *   <li>401/403 end in {@code AUTH_FAILED}; any other refusal the caller did not say it expects in
 *       {@code REMOTE_ERROR} with Batch's code, message and request id. No stack trace reaches a user: the SDK's
 *       exception is kept as the cause only.</li>
 * </ul>
 */
public final class BatchCalls {
    /** Batch's answers that say "try again later" for the account as a whole, not for this request. */
    static final Set<String> QUOTA_CODES = Set.of("ActiveJobAndScheduleQuotaReached", "PoolQuotaReached");
    /** Sent again by the retry policy: throttled, Batch's transient internal error, busy. */
    static final Set<Integer> RETRIED_STATUSES = Set.of(429, 500, 503);

    /**
     * How long Gantry keeps trying.
     *
     * @param attempts attempts per call on 429/500/503 and dropped connections, the first included
     * @param firstBackoff the first wait when Batch names none, doubled after each retry
     * @param longestWait the longest single wait, asked for or computed
     * @param quotaAttempts attempts while the account's quota is reached, the first included
     * @param quotaWait the wait between them (spread by the jitter)
     * @param jitter how computed waits are spread ({@link Jitter#NONE} in tests that compare waits)
     * @param sleeper how waits are made (a recording one in tests)
     */
    public record Policy(int attempts, Duration firstBackoff, Duration longestWait, int quotaAttempts,
                         Duration quotaWait, Jitter jitter, Sleeper sleeper) {
        public Policy {
            if (attempts < 1 || quotaAttempts < 1) {
                throw new IllegalArgumentException("attempts and quotaAttempts must be at least 1");
            }
            Objects.requireNonNull(firstBackoff, "firstBackoff");
            Objects.requireNonNull(longestWait, "longestWait");
            Objects.requireNonNull(quotaWait, "quotaWait");
            Objects.requireNonNull(jitter, "jitter");
            Objects.requireNonNull(sleeper, "sleeper");
        }

        /**
         * Six attempts with waits from 1 s up to 60 s (about two minutes of throttling ridden out); a quota reached
         * is waited out for ten minutes (another run's jobs or pools may end meanwhile) before QUOTA_EXCEEDED.
         */
        public static Policy defaults() {
            return new Policy(6, Duration.ofSeconds(1), Duration.ofSeconds(60), 11, Duration.ofMinutes(1),
                    Jitter.DEFAULT, Sleeper.THREAD);
        }
    }

    /** One protocol-layer call: sends its request once, returns Batch's answer or throws what the SDK throws. */
    @FunctionalInterface
    public interface Call<T> {
        T send();
    }

    private final Policy policy;
    private final HttpRetry retry;

    public BatchCalls(Policy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.retry = HttpRetry.builder().attempts(policy.attempts()).firstBackoff(policy.firstBackoff())
                .longestWait(policy.longestWait()).retryOn(RETRIED_STATUSES).retryIoFailures(true)
                .jitter(policy.jitter()).sleeper(policy.sleeper()).build();
    }

    /**
     * The calls to one account: the only way to its protocol client ({@link BatchConnection#protocol()}), which is
     * handed to each request inside this policy.
     */
    public AccountCalls on(BatchConnection connection) {
        return new AccountCalls(this, connection);
    }

    /** Makes the call; any refusal ends as a {@link GantryException} (see the class comment). */
    public <T> T call(String what, Call<T> call) {
        try {
            return call(what, Set.of(), call);
        } catch (Refused e) {
            throw new IllegalStateException("no refusal was expected", e);
        }
    }

    /**
     * Makes the call; a refusal whose Batch code is in {@code expected} is thrown as {@link Refused} for the caller to
     * read (after the retries above: a 429 is never handed back), any other as a {@link GantryException}.
     *
     * @param what what the call does, for messages: "adding pool P to account A"
     */
    public <T> T call(String what, Set<String> expected, Call<T> call) throws Refused {
        return call(what, refusal -> expected.contains(refusal.code()), call);
    }

    /**
     * Makes the call; a refusal {@code expected} accepts (by status, for answers without Batch's error body such as a
     * HEAD's) is thrown as {@link Refused}, after the retries: a 429 is never handed back.
     */
    public <T> T call(String what, Predicate<BatchRefusal> expected, Call<T> call) throws Refused {
        for (int quotaTry = 1; ; quotaTry++) {
            Answer<T> answer = retried(what, call);
            if (answer.refusal() == null) {
                return answer.value();
            }
            BatchRefusal refusal = answer.refusal();
            if (expected.test(refusal)) {
                throw new Refused(refusal);
            }
            if (QUOTA_CODES.contains(refusal.code())) {
                if (quotaTry < policy.quotaAttempts()) {
                    sleep(policy.jitter().apply(policy.quotaWait()), what);
                    continue;
                }
                throw new GantryException(ErrorCode.QUOTA_EXCEEDED, "the Batch account's quota is reached while "
                        + what + ", still after " + quotaTry + " tries over " + seconds(policy.quotaWait()
                        .multipliedBy(quotaTry - 1)) + ": " + refusal.describe() + ". Wait for other jobs or pools "
                        + "to end, remove idle ones (gantry gc), or ask for a higher quota (az batch account show "
                        + "--query activeJobAndJobScheduleQuota/poolQuota; Azure portal, Quotas)");
            }
            throw failure(what, refusal);
        }
    }

    private <T> Answer<T> retried(String what, Call<T> call) {
        RetryOutcome<Answer<T>> outcome;
        try {
            outcome = retry.call(() -> attempt(call), Answer::http, HttpRetry.Listener.NONE);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Azure Batch could not be reached while " + what
                    + ", after " + policy.attempts() + " attempts: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ". Check the network and the account "
                    + "URL (backends.batch.accounts[*].url).", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while " + what, e);
        }
        Answer<T> answer = outcome.response();
        if (answer.refusal() != null && RETRIED_STATUSES.contains(answer.refusal().status())) {
            BatchRefusal refusal = answer.refusal();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Azure Batch still answered " + refusal.describe()
                    + " after " + outcome.attempts() + " attempts while " + what + "; try again later");
        }
        return answer;
    }

    private static <T> Answer<T> attempt(Call<T> call) throws IOException, InterruptedException {
        try {
            return new Answer<>(call.send(), null);
        } catch (RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof BatchErrorException refused) {
                    return new Answer<>(null, refusal(refused));
                }
                if (cause instanceof InterruptedIOException && !(cause instanceof SocketTimeoutException)) {
                    // An interrupt during the request (OkHttp may clear the flag on the way): stop, never send again.
                    Thread.currentThread().interrupt();
                    throw new InterruptedException("interrupted during a request");
                }
                if (cause instanceof IOException io) {
                    throw io;
                }
            }
            throw e;
        }
    }

    /** Batch's refusal as the SDK reports it; a body without Batch's error shape still gives the status. */
    static BatchRefusal refusal(BatchErrorException e) {
        int status = e.response() == null ? 0 : e.response().code();
        Headers headers = e.response() == null ? Headers.of() : e.response().headers();
        BatchError error = e.body();
        String code = error == null || error.code() == null ? BatchRefusal.NO_CODE : error.code();
        String message = error == null || error.message() == null || error.message().value() == null
                ? "no message" : error.message().value().lines().findFirst().orElse("");
        Map<String, String> values = new LinkedHashMap<>();
        List<BatchErrorDetail> details = error == null || error.values() == null ? List.of() : error.values();
        for (BatchErrorDetail detail : details) {
            if (detail.key() != null) {
                values.put(detail.key(), detail.value() == null ? "" : detail.value());
            }
        }
        String requestId = Optional.ofNullable(headers.get("request-id")).orElse("none");
        return new BatchRefusal(status, code, message, requestId, values,
                Optional.ofNullable(headers.get("Retry-After")));
    }

    /** What a refusal means for a user: AUTH_FAILED with the fix for 401/403, else REMOTE_ERROR in Batch's words. */
    public static GantryException failure(String what, BatchRefusal refusal) {
        if (refusal.status() == 401 || refusal.status() == 403) {
            return new GantryException(ErrorCode.AUTH_FAILED, "Azure Batch refused Gantry's credentials while "
                    + what + ": " + refusal.describe() + ". With auth: sharedKey, check that "
                    + "backends.batch.accounts[*].key resolves to the account's current key (az batch account keys "
                    + "list); with auth: entra, give the identity Gantry signs in with a Batch role on the account "
                    + "(Azure Batch Data Contributor)");
        }
        return new GantryException(ErrorCode.REMOTE_ERROR, "Azure Batch refused " + what + ": "
                + refusal.describe() + (refusal.values().isEmpty() ? "" : " " + refusal.values()));
    }

    private void sleep(Duration wait, String what) {
        try {
            policy.sleeper().sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for the quota while "
                    + what, e);
        }
    }

    private static String seconds(Duration duration) {
        return duration.toSeconds() + " s";
    }

    /** One attempt's result: the value, or Batch's refusal; read as an {@link HttpAnswer} by the retry policy. */
    private record Answer<T>(T value, BatchRefusal refusal) {
        HttpAnswer http() {
            if (refusal == null) {
                return HttpAnswer.of(200, Map.of());
            }
            return HttpAnswer.of(refusal.status(), refusal.retryAfter()
                    .map(value -> Map.of("Retry-After", List.of(value))).orElse(Map.of()));
        }
    }
}
