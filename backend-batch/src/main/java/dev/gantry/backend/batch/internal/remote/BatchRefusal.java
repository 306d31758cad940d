package dev.gantry.backend.batch.internal.remote;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What Batch answered when it did not do what was asked: the HTTP status and Batch's own error (its code, message,
 * details and the {@code request-id} Microsoft support asks for). Read from the SDK's {@code BatchErrorException}.
 *
 * @param status the HTTP status
 * @param code Batch's error code ({@code PoolExists}, {@code TaskExists}, ...), {@code none} when the body had none
 * @param message Batch's message, first line
 * @param requestId the answer's {@code request-id} header, {@code none} when absent
 * @param values Batch's error details ({@code values[*].key/value}), in order
 * @param retryAfter the answer's {@code Retry-After} header, as sent
 */
public record BatchRefusal(int status, String code, String message, String requestId, Map<String, String> values,
                           Optional<String> retryAfter) {
    /** The code of an answer without Batch's error body (a HEAD's, a proxy's). */
    public static final String NO_CODE = "none";

    public BatchRefusal {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(requestId, "requestId");
        values = Map.copyOf(values);
        Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /** {@code 409 PoolExists: The specified pool already exists. (request-id ...)}: for messages to people. */
    public String describe() {
        return status + " " + code + ": " + message + " (request-id " + requestId + ")";
    }
}
