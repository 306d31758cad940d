package dev.gantry.api.backend;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to submit: the idempotency key makes a submit safe to retry after a lost reply: a backend given a key it has
 * seen returns the existing job instead of creating a second one.
 *
 * @param idempotencyKey 1-128 characters of letters, digits, '.', '_' and '-'
 */
public record SubmitOptions(String idempotencyKey) {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    public SubmitOptions {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        if (!KEY.matcher(idempotencyKey).matches()) {
            throw new IllegalArgumentException("idempotency key must be 1-128 letters, digits, '.', '_' or '-', got '"
                    + idempotencyKey + "'");
        }
    }

    public static SubmitOptions withKey(String idempotencyKey) {
        return new SubmitOptions(idempotencyKey);
    }
}
