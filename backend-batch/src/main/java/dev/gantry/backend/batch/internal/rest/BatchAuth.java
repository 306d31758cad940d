package dev.gantry.backend.batch.internal.rest;

import java.util.Base64;
import java.util.Objects;

/** How requests to a Batch account are authenticated: the account's shared key, or a Microsoft Entra ID token. */
public sealed interface BatchAuth permits BatchAuth.SharedKey, BatchAuth.Entra {
    /**
     * The scope of a Batch token in the public cloud. The double slash is Batch's own: its resource id is
     * {@code https://batch.core.windows.net/}, and a scope is the resource id followed by {@code /.default}. Other
     * clouds have their own (gantry-azure's {@code AzureCloud#batchScope}).
     */
    String BATCH_SCOPE = "https://batch.core.windows.net//.default";

    /**
     * Shared-key signing (the SDK's {@code BatchSharedKeyCredentials}, which signs as "Authenticate requests to the
     * Azure Batch service" documents: see {@code SharedKeySigningTest}).
     *
     * @param accountName the account's name, as the signature's canonical resource {@code /ACCOUNT/path} spells it
     * @param key the account's primary or secondary access key, Base64 as the portal shows it
     */
    record SharedKey(String accountName, String key) implements BatchAuth {
        public SharedKey {
            Objects.requireNonNull(accountName, "accountName");
            Objects.requireNonNull(key, "key");
            if (accountName.isBlank()) {
                throw new IllegalArgumentException("the Batch account name for shared-key signing is empty; give the "
                        + "name the account's URL starts with");
            }
            try {
                if (Base64.getDecoder().decode(key.strip()).length == 0) {
                    throw new IllegalArgumentException("empty");
                }
            } catch (IllegalArgumentException e) {
                // The value itself is never repeated: it is a secret, even when malformed.
                throw new IllegalArgumentException("the shared key of Batch account " + accountName + " is not a "
                        + "Base64 access key; copy Primary access key from the account's Keys page (or "
                        + "az batch account keys list)");
            }
            key = key.strip();
        }

        @Override
        public String toString() {
            return "SharedKey[accountName=" + accountName + ", key=***]";
        }
    }

    /**
     * A bearer token for {@code scope} on every request, from gantry-azure's credential chain.
     *
     * @param scope the Batch scope of the account's cloud, e.g. {@link #BATCH_SCOPE}
     */
    record Entra(AccessTokenSource tokens, String scope) implements BatchAuth {
        public Entra {
            Objects.requireNonNull(tokens, "tokens");
            Objects.requireNonNull(scope, "scope");
            if (scope.isBlank()) {
                throw new IllegalArgumentException("the Batch scope of an Entra ID sign-in is empty");
            }
        }

        /** Tokens for the public cloud's Batch ({@link #BATCH_SCOPE}). */
        public Entra(AccessTokenSource tokens) {
            this(tokens, BATCH_SCOPE);
        }
    }
}
