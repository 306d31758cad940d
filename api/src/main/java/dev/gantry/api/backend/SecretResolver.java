package dev.gantry.api.backend;

import dev.gantry.api.SecretRef;

/**
 * Turns a secret reference into its value, at submit time only. Fails with
 * {@link dev.gantry.api.ErrorCode#SECRET_UNRESOLVED} naming the reference (never a value).
 */
@FunctionalInterface
public interface SecretResolver {
    Secret resolve(SecretRef ref);
}
