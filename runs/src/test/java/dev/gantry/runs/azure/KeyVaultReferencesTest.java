package dev.gantry.runs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.azure.keyvault.KeyVaultSecrets;
import dev.gantry.core.secrets.ReferenceSecretResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Core's secret resolver over the Azure module's Key Vault client, as the facade wires them. */
class KeyVaultReferencesTest {
    @TempDir
    Path dir;

    private ReferenceSecretResolver resolver(Map<String, String> env) {
        return new ReferenceSecretResolver(env, dir, new KeyVaultSecrets(() -> {
            throw new AssertionError("Key Vault must not be contacted");
        })::fetch);
    }

    @Test
    void aWorkloadWithoutKeyVaultReferencesNeverCreatesACredential() throws Exception {
        AtomicInteger credentials = new AtomicInteger();
        ReferenceSecretResolver resolver = new ReferenceSecretResolver(Map.of("HF_TOKEN", "s3cr3t"), dir,
                new KeyVaultSecrets(() -> {
                    credentials.incrementAndGet();
                    throw new AssertionError("Key Vault must not be contacted");
                })::fetch);
        Files.writeString(dir.resolve("wandb"), "w4ndb\n");
        Map<String, SecretRef> secrets = Map.of("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"),
                "WANDB_API_KEY", SecretRef.parse("file:wandb"));

        secrets.values().forEach(resolver::resolve);

        assertEquals(0, credentials.get());
    }

    @Test
    void aMalformedKeyVaultReferenceFailsNamingThePartThatIsWrong() {
        // SecretRef's constructor takes any location; only SecretRef.parse checks it. A program can skip parse.
        GantryException e = assertThrows(GantryException.class, () -> resolver(Map.of()).resolve(
                new SecretRef(SecretRef.Kind.KEY_VAULT, "https://gantry-models.vault.azure.net/secrets/hf_token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret https://gantry-models.vault.azure.net/secrets/hf_token: not a Key Vault secret "
                + "reference: the secret name 'hf_token' must be 1-127 letters, digits and '-'; write it as "
                + "https://VAULT.vault.azure.net/secrets/NAME[/VERSION]", e.getMessage());
    }

    @Test
    void theModuleIsFoundOnThisClassPath() {
        assertTrue(AzureModule.present(), "the runs module's tests have gantry-azure on their class path");
        AzureModule.require("anything");
    }
}
