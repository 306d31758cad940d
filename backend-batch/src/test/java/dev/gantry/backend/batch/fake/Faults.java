package dev.gantry.backend.batch.fake;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faults on demand, per operation (Batch's operation id, e.g. {@code Task_AddCollection}), each for the next
 * {@code times} requests to that operation, in the order they were asked for. Faults before the request is applied
 * answer instead of it (429, 503, 500); faults after it is applied lose or delay its reply.
 */
public final class Faults {
    /** How a 429 names its wait in {@code Retry-After}. */
    public enum RetryAfterForm { SECONDS, HTTP_DATE }

    sealed interface Fault permits Refuse, DropAfterApply, SlowAfterApply {
    }

    record Refuse(int status, String code, String message, Duration retryAfter, RetryAfterForm form)
            implements Fault {
    }

    record DropAfterApply() implements Fault {
    }

    record SlowAfterApply(Duration delay) implements Fault {
    }

    private final Map<String, Deque<Fault>> planned = new ConcurrentHashMap<>();

    /** The next {@code times} requests to the operation answer 429 with {@code Retry-After} in the given form. */
    public void throttle(String operation, int times, Duration retryAfter, RetryAfterForm form) {
        add(operation, times, new Refuse(429, "TooManyRequests",
                "The server is throttling requests from this account.", retryAfter, form));
    }

    /** The next {@code times} requests to the operation answer {@code 503 ServerBusy}. */
    public void serverBusy(String operation, int times) {
        serverBusy(operation, times, null, null);
    }

    /** The next {@code times} requests to the operation answer {@code 503 ServerBusy} with {@code Retry-After}. */
    public void serverBusy(String operation, int times, Duration retryAfter, RetryAfterForm form) {
        add(operation, times, new Refuse(503, "ServerBusy", "The server is currently unable to receive requests. "
                + "Please retry your request.", retryAfter, form));
    }

    /** The next {@code times} requests to the operation answer {@code 500 InternalError}. */
    public void serverError(String operation, int times) {
        add(operation, times, new Refuse(500, "InternalError", "Server encountered an internal error. "
                + "Please try again after some time.", null, null));
    }

    /** The next {@code times} requests to the operation are applied, then their connection is closed unanswered. */
    public void dropAfterApply(String operation, int times) {
        add(operation, times, new DropAfterApply());
    }

    /** The next {@code times} requests to the operation are applied, then answered only after {@code delay}. */
    public void slowAfterApply(String operation, int times, Duration delay) {
        add(operation, times, new SlowAfterApply(delay));
    }

    /** Forgets every planned fault. */
    public void clear() {
        planned.clear();
    }

    private void add(String operation, int times, Fault fault) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, not " + times);
        }
        Deque<Fault> queue = planned.computeIfAbsent(operation, k -> new ArrayDeque<>());
        synchronized (queue) {
            for (int i = 0; i < times; i++) {
                queue.addLast(fault);
            }
        }
    }

    /** The fault for this request to the operation, taken from the plan, or null. */
    Fault take(String operation) {
        Deque<Fault> queue = planned.get(operation);
        if (queue == null) {
            return null;
        }
        synchronized (queue) {
            return queue.pollFirst();
        }
    }

    static String retryAfterValue(Refuse refuse) {
        return refuse.form() == RetryAfterForm.HTTP_DATE
                ? Json.httpDate(Instant.now().plus(refuse.retryAfter()))
                : Long.toString(Math.max(0, refuse.retryAfter().toSeconds()));
    }
}
