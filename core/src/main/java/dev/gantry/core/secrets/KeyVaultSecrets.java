package dev.gantry.core.secrets;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.security.keyvault.secrets.SecretClient;
import com.azure.security.keyvault.secrets.SecretClientBuilder;
import com.azure.security.keyvault.secrets.models.KeyVaultSecret;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Fetches Key Vault secrets with the Azure SDK and DefaultAzureCredential (created on first use only, so workloads
 * without Key Vault references never touch Azure).
 */
public final class KeyVaultSecrets {
    private final Supplier<TokenCredential> credentials;
    private final Map<String, SecretClient> clients = new ConcurrentHashMap<>();
    private volatile TokenCredential credential;

    public KeyVaultSecrets() {
        this(() -> new DefaultAzureCredentialBuilder().build());
    }

    public KeyVaultSecrets(Supplier<TokenCredential> credentials) {
        this.credentials = credentials;
    }

    public Secret fetch(SecretRef ref) {
        URI uri = URI.create(ref.location());
        String[] parts = uri.getPath().split("/");
        // path: /secrets/NAME[/VERSION]
        String name = parts.length > 2 ? parts[2] : "";
        String version = parts.length > 3 ? parts[3] : null;
        String vault = uri.getScheme() + "://" + uri.getHost();
        try {
            SecretClient client = clients.computeIfAbsent(vault,
                    url -> new SecretClientBuilder().vaultUrl(url).credential(credential()).buildClient());
            KeyVaultSecret secret = client.getSecret(name, version);
            return new Secret(secret.getValue());
        } catch (RuntimeException e) {
            throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": Key Vault did not return it ("
                    + e.getClass().getSimpleName() + "); check that the vault exists and that your identity may read "
                    + "secrets (az login, or a managed identity with the Key Vault Secrets User role)", e);
        }
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
