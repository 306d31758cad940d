package dev.gantry.core.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.azure.keyvault.KeyVaultSecrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceSecretResolverTest {
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
    void environmentReferencesResolveFromTheSubmittingProcess() {
        Secret secret = resolver(Map.of("HF_TOKEN", "s3cr3t")).resolve(SecretRef.parse("env:HF_TOKEN"));
        assertEquals("s3cr3t", secret.reveal());
        assertEquals("******", secret.toString());
    }

    @Test
    void aMissingVariableIsNamedButNoValueIsPrinted() {
        GantryException e = assertThrows(GantryException.class,
                () -> resolver(Map.of()).resolve(SecretRef.parse("env:HF_TOKEN")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret env:HF_TOKEN: the environment variable HF_TOKEN is not set in the shell that runs gantry;"
                + " export it or use file:PATH", e.getMessage());
    }

    @Test
    void fileReferencesDropTheEditorsTrailingNewlineOnly() throws Exception {
        Files.writeString(dir.resolve("token"), "  a b \n");
        assertEquals("  a b ", resolver(Map.of()).resolve(SecretRef.parse("file:token")).reveal());
    }

    @Test
    void anUnreadableFileIsReportedWithItsPath() {
        GantryException e = assertThrows(GantryException.class,
                () -> resolver(Map.of()).resolve(SecretRef.parse("file:missing")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertFalse(e.getMessage().isBlank());
        assertEquals(true, e.getMessage().contains(dir.resolve("missing").toString()));
    }
}
