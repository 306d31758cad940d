package dev.gantry.api.backend;

import dev.gantry.api.SecretRef;

/**
 * Turns a secret reference into its value, at submit time only. Fails with
 * {@link dev.gantry.api.ErrorCode#SECRET_UNRESOLVED} naming the reference (never a value).
 */
@FunctionalInterface
public interface SecretResolver {
    /**
     * Reads the secret a reference names.
     *
     * @param ref where the secret lives
     * @return its value
     * @throws dev.gantry.api.GantryException {@link dev.gantry.api.ErrorCode#SECRET_UNRESOLVED} naming the reference
     *     when it cannot be read (an unset variable, a missing file, a Key Vault refusal)
     */
    Secret resolve(SecretRef ref);
}
