package dev.gantry.core.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
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
        return new ReferenceSecretResolver(env, dir, ref -> {
            throw new AssertionError("Key Vault must not be contacted");
        });
    }

    @Test
    void onlyKeyVaultReferencesReachTheStore() throws Exception {
        AtomicInteger fetched = new AtomicInteger();
        ReferenceSecretResolver resolver = new ReferenceSecretResolver(Map.of("HF_TOKEN", "s3cr3t"), dir, ref -> {
            fetched.incrementAndGet();
            return new Secret("from-the-vault");
        });
        Files.writeString(dir.resolve("wandb"), "w4ndb\n");

        assertEquals("s3cr3t", resolver.resolve(SecretRef.parse("env:HF_TOKEN")).reveal());
        assertEquals("w4ndb", resolver.resolve(SecretRef.parse("file:wandb")).reveal());
        assertEquals(0, fetched.get());
        assertEquals("from-the-vault", resolver.resolve(
                SecretRef.parse("https://gantry-models.vault.azure.net/secrets/hf-token")).reveal());
        assertEquals(1, fetched.get());
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
