package dev.gantry.core.secrets;

import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;

/**
 * Where Key Vault references are fetched: Azure Key Vault in production
 * (the Azure module's Key Vault client, which the facade supplies when {@code gantry-azure} is on the class path). Core decides which references go here
 * ({@link ReferenceSecretResolver}); the store only fetches, and fails with an error that names the reference and
 * never a value.
 */
@FunctionalInterface
public interface SecretStore {
    Secret fetch(SecretRef ref);
}
