package dev.gantry.backend.batch.internal.remote;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The calls to one Batch account, each made through {@link BatchCalls}' one retry and quota policy. This is the only
 * class that asks a connection for its protocol client, and it hands the client only to a {@link Request} it makes
 * inside the policy; no component keeps one ({@code ProtocolCallsGoThroughBatchCallsTest} checks both).
 */
public final class AccountCalls {
    /** One protocol-layer request on the account's client: sent once per attempt, so no more than one call in it. */
    @FunctionalInterface
    public interface Request<T> {
        T send(BatchServiceClient batch);
    }

    private final BatchCalls calls;
    private final BatchConnection connection;

    AccountCalls(BatchCalls calls, BatchConnection connection) {
        this.calls = Objects.requireNonNull(calls, "calls");
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    /** Makes the request; any refusal ends as a {@code GantryException} ({@link BatchCalls#call(String, BatchCalls.Call)}). */
    public <T> T call(String what, Request<T> request) {
        return calls.call(what, () -> request.send(connection.protocol()));
    }

    /** Makes the request; a refusal with one of the {@code expected} Batch codes is thrown as {@link Refused}. */
    public <T> T call(String what, Set<String> expected, Request<T> request) throws Refused {
        return calls.call(what, expected, () -> request.send(connection.protocol()));
    }

    /** Makes the request; a refusal {@code expected} accepts (its status, its code) is thrown as {@link Refused}. */
    public <T> T call(String what, Predicate<BatchRefusal> expected, Request<T> request) throws Refused {
        return calls.call(what, expected, () -> request.send(connection.protocol()));
    }

    /**
     * Makes the request; empty when Batch refuses it in a way {@code none} accepts, which the caller reads as "there is
     * none" (a 404: it is gone; a 409 to a terminate: it already ended). The request answers something non-null.
     */
    public <T> Optional<T> callOrEmpty(String what, Predicate<BatchRefusal> none, Request<T> request) {
        try {
            return Optional.of(call(what, none, request));
        } catch (Refused accepted) {
            return Optional.empty();
        }
    }

    /** Only "not found": a GET's or HEAD's 404, with or without Batch's error body. */
    public static Predicate<BatchRefusal> notFound() {
        return refusal -> refusal.status() == 404;
    }
}
