package dev.gantry.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * How a remote client retries, in one place: throttling (429) and unavailability (503) are retried, waiting as the
 * server's {@code Retry-After} says (seconds or an HTTP date), else with an exponential backoff (doubling from
 * {@code firstBackoff}, never above {@code longestWait}) spread by {@link Jitter}; at most {@code attempts} attempts;
 * waits end at once when the thread is interrupted; and every attempt is counted ({@link #calls()}), for a backend's
 * {@code remoteCalls()}.
 *
 * <p>The client hands over "send this request once" ({@link Attempt}) and gets the last response back with how the
 * call ended ({@link RetryOutcome}): the messages stay the client's own, since only it knows what it asked and what
 * the status means. Around {@code java.net.http} that is {@link #send}; around any other client (Fabric8, the Batch
 * SDK), {@link #call} with what the library reports as an {@link HttpAnswer}.
 *
 * <p>An instance is immutable apart from its count, and safe to share between threads.
 */
public final class HttpRetry {
    /** Throttled (429 Too Many Requests) and unavailable (503 Service Unavailable): what a server says to retry. */
    public static final Set<Integer> THROTTLED_OR_UNAVAILABLE = Set.of(429, 503);

    /** One attempt of a call: send the request once and return the response, whatever its status. */
    @FunctionalInterface
    public interface Attempt<R> {
        R send() throws IOException, InterruptedException;
    }

    /** What a client hears about a call's attempts, for its log; both methods do nothing by default. */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        /** Attempt {@code attempt} (from 1) is about to be sent. */
        default void attempting(int attempt) {
        }

        /** Attempt {@code attempt} failed with {@code why} ({@code HTTP 503}, an I/O failure); the next follows the wait. */
        default void retrying(int attempt, String why, Duration wait) {
        }
    }

    /** What to do when {@code Retry-After} asks for a longer wait than {@code longestWait}. */
    public enum LongerWait {
        /** Wait {@code longestWait}, then try again (a public API that throttles briefly but says long). */
        WAIT_THE_LONGEST,
        /** Give up at once ({@link RetryOutcome.Ending#WAIT_TOO_LONG}): the server will not be back soon. */
        GIVE_UP
    }

    private final int attempts;
    private final Duration firstBackoff;
    private final Duration longestWait;
    private final Set<Integer> statuses;
    private final boolean retryIoFailures;
    private final LongerWait longerWait;
    private final Jitter jitter;
    private final Sleeper sleeper;
    private final Clock clock;
    private final AtomicLong calls = new AtomicLong();

    private HttpRetry(Builder builder) {
        this.attempts = builder.attempts;
        this.firstBackoff = builder.firstBackoff;
        this.longestWait = builder.longestWait;
        this.statuses = Set.copyOf(builder.statuses);
        this.retryIoFailures = builder.retryIoFailures;
        this.longerWait = builder.longerWait;
        this.jitter = builder.jitter;
        this.sleeper = builder.sleeper;
        this.clock = builder.clock;
    }

    /** A policy of 3 attempts on 429 and 503, backoff from 1s doubling up to 30s with jitter, waits of at most 30s. */
    public static Builder builder() {
        return new Builder();
    }

    /** Sends {@code request} with {@code client}, again while the answer is one to retry. */
    public <T> RetryOutcome<HttpResponse<T>> send(HttpClient client, HttpRequest request,
                                                  HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        return send(client, request, body, Listener.NONE);
    }

    /** As {@link #send(HttpClient, HttpRequest, HttpResponse.BodyHandler)}, telling {@code listener} each attempt. */
    public <T> RetryOutcome<HttpResponse<T>> send(HttpClient client, HttpRequest request,
                                                  HttpResponse.BodyHandler<T> body, Listener listener)
            throws IOException, InterruptedException {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(body, "body");
        return call(() -> client.send(request, body), HttpAnswer::of, listener);
    }

    /** Makes {@code attempt} until it answers what is not retried, or the policy stops; for answers of any client. */
    public <R extends HttpAnswer> RetryOutcome<R> call(Attempt<R> attempt) throws IOException, InterruptedException {
        return call(attempt, answer -> answer, Listener.NONE);
    }

    /**
     * Makes {@code attempt} until its response, read by {@code answer}, is not one to retry, or the policy stops.
     * An I/O failure ends the call with that exception, unless the policy retries I/O failures and attempts are
     * left. An interrupt, during an attempt or a wait, ends it with {@link InterruptedException}.
     */
    public <R> RetryOutcome<R> call(Attempt<R> attempt, Function<? super R, HttpAnswer> answer, Listener listener)
            throws IOException, InterruptedException {
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(listener, "listener");
        Duration backoff = firstBackoff;
        for (int made = 1; ; made++) {
            listener.attempting(made);
            calls.incrementAndGet();
            R response;
            try {
                response = attempt.send();
            } catch (IOException e) {
                if (!retryIoFailures || made >= attempts) {
                    throw e;
                }
                pause(made, e.getMessage() == null ? e.getClass().getSimpleName()
                        : e.getClass().getSimpleName() + ": " + e.getMessage(), jitter.apply(backoff), listener);
                backoff = doubled(backoff);
                continue;
            }
            HttpAnswer read = answer.apply(response);
            int status = read.status();
            if (!statuses.contains(status)) {
                return new RetryOutcome<>(response, status, made, RetryOutcome.Ending.ANSWERED, Optional.empty());
            }
            Optional<Duration> asked = read.header("Retry-After").flatMap(value -> RetryAfter.parse(value,
                    clock.instant()));
            if (made >= attempts) {
                return new RetryOutcome<>(response, status, made, RetryOutcome.Ending.ATTEMPTS_USED_UP, asked);
            }
            boolean tooLong = asked.isPresent() && asked.get().compareTo(longestWait) > 0;
            if (tooLong && longerWait == LongerWait.GIVE_UP) {
                return new RetryOutcome<>(response, status, made, RetryOutcome.Ending.WAIT_TOO_LONG, asked);
            }
            Duration wait = asked.isPresent() ? shortest(asked.get(), longestWait) : jitter.apply(backoff);
            pause(made, "HTTP " + status, wait, listener);
            backoff = doubled(backoff);
        }
    }

    /** How many attempts this policy has made, over all its calls: each one is a request to the server. */
    public long calls() {
        return calls.get();
    }

    /** The bound on attempts per call. */
    public int attempts() {
        return attempts;
    }

    /** The longest single wait. */
    public Duration longestWait() {
        return longestWait;
    }

    private void pause(int attempt, String why, Duration wait, Listener listener) throws InterruptedException {
        listener.retrying(attempt, why, wait);
        // A sleeper of the caller's own may not look at the interrupt; a wait of zero may not either.
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before retrying after " + why);
        }
        sleeper.sleep(wait);
    }

    private Duration doubled(Duration backoff) {
        return shortest(backoff.multipliedBy(2), longestWait);
    }

    private static Duration shortest(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public String toString() {
        return "HttpRetry[" + attempts + " attempts on " + new TreeSet<>(statuses) + (retryIoFailures
                ? " and I/O failures" : "") + ", backoff from " + RetryOutcome.seconds(firstBackoff) + " up to "
                + RetryOutcome.seconds(longestWait) + ", longer Retry-After: " + longerWait + ", " + calls()
                + " calls made]";
    }

    /** The policy's settings; each has a default (see {@link #builder()}). */
    public static final class Builder {
        private int attempts = 3;
        private Duration firstBackoff = Duration.ofSeconds(1);
        private Duration longestWait = Duration.ofSeconds(30);
        private Set<Integer> statuses = THROTTLED_OR_UNAVAILABLE;
        private boolean retryIoFailures;
        private LongerWait longerWait = LongerWait.WAIT_THE_LONGEST;
        private Jitter jitter = Jitter.DEFAULT;
        private Sleeper sleeper = Sleeper.THREAD;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** Attempts per call, the first included: at least 1 (1 means no retry). */
        public Builder attempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1 (the first attempt), got " + attempts);
            }
            this.attempts = attempts;
            return this;
        }

        /** The first computed backoff, doubled after each retry up to {@code longestWait}: positive. */
        public Builder firstBackoff(Duration firstBackoff) {
            this.firstBackoff = positive("firstBackoff", firstBackoff);
            return this;
        }

        /** The longest single wait, computed or asked for: positive. */
        public Builder longestWait(Duration longestWait) {
            this.longestWait = positive("longestWait", longestWait);
            return this;
        }

        /** The statuses to retry, instead of 429 and 503. */
        public Builder retryOn(Set<Integer> statuses) {
            for (int status : Objects.requireNonNull(statuses, "statuses")) {
                if (status < 100 || status > 599) {
                    throw new IllegalArgumentException("an HTTP status to retry must be from 100 to 599, got "
                            + status);
                }
            }
            this.statuses = Set.copyOf(statuses);
            return this;
        }

        /**
         * Whether an attempt that fails with an {@link IOException} (refused, reset, timed out) is retried too, with
         * the same backoff; by default it ends the call at once, so that an unreachable server is said at once.
         */
        public Builder retryIoFailures(boolean retry) {
            this.retryIoFailures = retry;
            return this;
        }

        /** What to do when {@code Retry-After} asks for longer than {@code longestWait}. */
        public Builder whenAskedToWaitLonger(LongerWait longerWait) {
            this.longerWait = Objects.requireNonNull(longerWait, "longerWait");
            return this;
        }

        public Builder jitter(Jitter jitter) {
            this.jitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /** The clock an HTTP date in {@code Retry-After} is counted from. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public HttpRetry build() {
            return new HttpRetry(this);
        }

        private static Duration positive(String name, Duration duration) {
            Objects.requireNonNull(duration, name);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + duration);
            }
            return duration;
        }
    }
}
