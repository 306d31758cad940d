package dev.gantry.azure.keyvault;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.security.keyvault.secrets.SecretClient;
import com.azure.security.keyvault.secrets.SecretClientBuilder;
import com.azure.security.keyvault.secrets.models.KeyVaultSecret;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.azure.cloud.AzureSignIn;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Fetches Key Vault secrets with the Azure SDK and DefaultAzureCredential (created on first use only, so workloads
 * without Key Vault references never touch Azure). One client per vault: the SDK caches the vault's authentication
 * challenge and the token in the client.
 */
public final class KeyVaultSecrets {
    private final Supplier<TokenCredential> credentials;
    private final Transport transport;
    private final Map<String, SecretClient> clients = new ConcurrentHashMap<>();
    private volatile TokenCredential credential;

    /**
     * How clients reach a vault. Production uses {@link #AZURE}: the SDK's own HTTP client, the vault's own URL, and
     * the SDK's check that the authentication challenge names a resource in the vault's domain (so a host that is
     * not a vault cannot collect a token meant for Key Vault). Tests point a vault at a local fake, whose loopback
     * address is outside that domain.
     *
     * @param httpClient the HTTP client, or empty for the SDK's default
     * @param endpoint maps a vault's URL to the URL the client calls
     * @param verifyChallengeResource whether the SDK checks the challenge's resource against the vault's domain
     */
    record Transport(Optional<HttpClient> httpClient, UnaryOperator<String> endpoint,
            boolean verifyChallengeResource) {
        static final Transport AZURE = new Transport(Optional.empty(), UnaryOperator.identity(), true);

        Transport {
            Objects.requireNonNull(httpClient, "httpClient");
            Objects.requireNonNull(endpoint, "endpoint");
        }
    }

    public KeyVaultSecrets() {
        this(AzureSignIn::defaultCredential);
    }

    public KeyVaultSecrets(Supplier<TokenCredential> credentials) {
        this(credentials, Transport.AZURE);
    }

    KeyVaultSecrets(Supplier<TokenCredential> credentials, Transport transport) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    public Secret fetch(SecretRef ref) {
        // A malformed reference fails here, before any credential or client exists.
        KeyVaultReference where = KeyVaultReference.of(ref);
        KeyVaultSecret secret;
        try {
            SecretClient client = clients.computeIfAbsent(where.vault(), this::connect);
            secret = client.getSecret(where.name(), where.version().orElse(null));
        } catch (GantryException e) {
            // The cloud's choice failed (a bad AZURE_CLOUD): its message is the one to show.
            throw e;
        } catch (RuntimeException e) {
            throw KeyVaultFailure.explain(ref, where, e);
        }
        if (secret.getValue() == null) {
            throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": Key Vault answered without "
                    + "a value; check the secret in the portal or with az keyvault secret show");
        }
        return new Secret(secret.getValue());
    }

    private SecretClient connect(String vault) {
        SecretClientBuilder builder = new SecretClientBuilder()
                .vaultUrl(transport.endpoint().apply(vault))
                .credential(credential());
        transport.httpClient().ifPresent(builder::httpClient);
        if (!transport.verifyChallengeResource()) {
            builder.disableChallengeResourceVerification();
        }
        return builder.buildClient();
    }

    private TokenCredential credential() {
        if (credential == null) {
            synchronized (this) {
                if (credential == null) {
                    credential = credentials.get();
                }
            }
        }
        return credential;
    }
}
