package dev.gantry.azure.keyvault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyVaultReferenceTest {
    private static KeyVaultReference of(String location) {
        return KeyVaultReference.of(new SecretRef(SecretRef.Kind.KEY_VAULT, location));
    }

    @Test
    void aReferenceSplitsIntoVaultNameAndVersion() {
        assertEquals(new KeyVaultReference("https://gantry-models.vault.azure.net", "hf-token",
                Optional.of("4387e9f3d6e14c459867679a90fd0f79")),
                of("https://gantry-models.vault.azure.net/secrets/hf-token/4387e9f3d6e14c459867679a90fd0f79"));
        KeyVaultReference latest = of("https://Gantry-Models.vault.azure.cn/secrets/hf-token/");
        assertEquals(new KeyVaultReference("https://gantry-models.vault.azure.cn", "hf-token", Optional.empty()),
                latest);
        assertEquals("gantry-models", latest.vaultName());
    }

    /** Every malformed reference names the part that is wrong; none reaches the SDK. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "https://v1.vault.azure.net/secrets/a b | it is not a URI (Illegal character in path at index 36)",
        "http://gantry-models.vault.azure.net/secrets/hf-token | the scheme must be https (Key Vault takes tokens over"
                + " TLS only), got 'http'",
        "HF_TOKEN | the scheme must be https (Key Vault takes tokens over TLS only), got 'null'",
        "https://gantry-models.vault.azure.net:8443/secrets/hf-token | the vault must be a plain host name like "
                + "VAULT.vault.azure.net, got 'gantry-models.vault.azure.net:8443'",
        "https://gantry-models.vault.azure.net/secrets/hf-token?version=1 | a Key Vault reference takes no query or "
                + "fragment (the version is a path segment)",
        "https://gantry-models.vault.azure.net/secrets/ | the path must be /secrets/NAME or /secrets/NAME/VERSION, "
                + "got '/secrets/'",
        "https://gantry-models.vault.azure.net/certificates/tls | the path must be /secrets/NAME or "
                + "/secrets/NAME/VERSION, got '/certificates/tls' (that names a Key Vault certificate, not a secret)",
        "https://gantry-models.vault.azure.net/secrets/hf-token/v1/extra | the path must be /secrets/NAME or "
                + "/secrets/NAME/VERSION, got '/secrets/hf-token/v1/extra'",
        "https://gantry-models.vault.azure.net/secrets/hf-token/v1 | the secret version 'v1' must be the "
                + "32-character id Key Vault shows (az keyvault secret list-versions), or left out to take the latest"
                + " version",
        "https://gantry-models.example.com/secrets/hf-token | the vault host 'gantry-models.example.com' must be "
                + "VAULT.vault.azure.net (or a sovereign cloud's vault domain: vault.azure.cn, vault.usgovcloudapi.net,"
                + " vault.microsoftazure.de) with a vault name of 3-24 letters, digits and '-'",
    })
    void aMalformedReferenceNamesThePartThatIsWrong(String location, String problem) {
        GantryException e = assertThrows(GantryException.class, () -> of(location));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + location + ": not a Key Vault secret reference: " + problem + "; write it as "
                + "https://VAULT.vault.azure.net/secrets/NAME[/VERSION]", e.getMessage());
    }

    /** SecretRef.parse is the one definition: what it accepts splits here, what it refuses fails here. */
    @ParameterizedTest
    @CsvSource({
        "https://abc.vault.azure.net/secrets/x",
        "https://a-very-long-vault-name-24.vault.usgovcloudapi.net/secrets/x",
        "https://gantry.vault.microsoftazure.de/secrets/a-b-c/0123456789ABCDEF0123456789abcdef",
        "https://ab.vault.azure.net/secrets/x",
        "https://a-vault-name-of-25-chars.vault.azure.net/secrets/x",
        "https://gantry.vault.azure.net.evil.example/secrets/x",
        "https://gantry.vault.azure.net/secrets/" + "n123456789n123456789n123456789n123456789n123456789n123456789"
                + "n123456789n123456789n123456789n123456789n123456789n123456789n1234567",
    })
    void theSplitAgreesWithSecretRefParse(String location) {
        boolean specsAccept;
        try {
            specsAccept = SecretRef.parse(location).kind() == SecretRef.Kind.KEY_VAULT;
        } catch (GantryException e) {
            specsAccept = false;
        }
        boolean accepted;
        try {
            of(location);
            accepted = true;
        } catch (GantryException e) {
            accepted = false;
        }
        assertEquals(specsAccept, accepted, location);
    }
}
