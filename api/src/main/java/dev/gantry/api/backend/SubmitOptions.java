package dev.gantry.api.backend;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to submit.
 *
 * <p>The idempotency key is the submit's only identity: it makes a submit safe to retry after a lost reply, since a
 * backend given a key it has seen returns the existing job instead of creating a second one. Attempts of one step
 * have different keys (core derives them), so an attempt is never mistaken for a retry of the previous one.
 * Orchestrators whose names are limited (Kubernetes: 63 lower-case characters; Batch: 64, compared without case)
 * derive a stable short name from the key with {@link JobNames}, never from anything else.
 *
 * @param idempotencyKey 1-128 characters of letters, digits, '.', '_' and '-'
 * @param attempt which attempt of the step this is, from 1; a resubmission after a terminal eviction raises it
 *     (SPI v2)
 * @param resume whether the job resumes from its checkpoint: backends export it as
 *     {@link JobEnvironment#RESUME} (SPI v2)
 * @param dependencies jobs that must end before this one starts, and how (SPI v2); see {@link JobDependency}
 */
public record SubmitOptions(String idempotencyKey, int attempt, boolean resume, List<JobDependency> dependencies) {
    /** What an idempotency key may hold, as messages about one say it. */
    public static final String KEY_RULE = "1-128 letters, digits, '.', '_' or '-'";
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    /**
     * Checks the key and the attempt, and copies the dependencies.
     *
     * @param idempotencyKey the key, {@link #KEY_RULE}
     * @param attempt the attempt, from 1
     * @param resume whether to resume from the checkpoint
     * @param dependencies the dependencies, copied
     * @throws NullPointerException when the key or the dependencies are null
     * @throws IllegalArgumentException when the key breaks {@link #KEY_RULE} or {@code attempt} is below 1
     */
    public SubmitOptions {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        if (!KEY.matcher(idempotencyKey).matches()) {
            throw new IllegalArgumentException("idempotency key must be " + KEY_RULE + ", got '" + idempotencyKey
                    + "'");
        }
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be 1 or more, got " + attempt);
        }
        dependencies = List.copyOf(Objects.requireNonNull(dependencies, "dependencies"));
    }

    /**
     * Whether {@code key} can be an idempotency key ({@link #KEY_RULE}), and so a Gantry job id.
     *
     * @param key the text to check; null is not valid
     * @return whether it is valid
     */
    public static boolean isValidKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    /**
     * A first attempt, not resuming, with no dependencies (the SPI v1 form).
     *
     * @param idempotencyKey the key, {@link #KEY_RULE}
     */
    public SubmitOptions(String idempotencyKey) {
        this(idempotencyKey, 1, false, List.of());
    }

    /**
     * A first attempt, not resuming, with no dependencies.
     *
     * @param idempotencyKey the key, {@link #KEY_RULE}
     * @return the options
     * @throws IllegalArgumentException when the key breaks {@link #KEY_RULE}
     */
    public static SubmitOptions withKey(String idempotencyKey) {
        return new SubmitOptions(idempotencyKey);
    }

    /**
     * These options as attempt {@code number}.
     *
     * @param number the attempt, from 1
     * @return a copy with that attempt
     */
    public SubmitOptions attempt(int number) {
        return new SubmitOptions(idempotencyKey, number, resume, dependencies);
    }

    /**
     * These options resuming from the checkpoint, or not.
     *
     * @param value true to resume
     * @return a copy with that flag
     */
    public SubmitOptions resuming(boolean value) {
        return new SubmitOptions(idempotencyKey, attempt, value, dependencies);
    }

    /**
     * These options with {@code values} as the dependencies, replacing any given before.
     *
     * @param values the dependencies; empty for none
     * @return a copy with those dependencies
     */
    public SubmitOptions dependingOn(List<JobDependency> values) {
        return new SubmitOptions(idempotencyKey, attempt, resume, values);
    }

    /**
     * These options with {@code values} as the dependencies, replacing any given before.
     *
     * @param values the dependencies, none for none
     * @return a copy with those dependencies
     */
    public SubmitOptions dependingOn(JobDependency... values) {
        return dependingOn(List.of(values));
    }
}
