package dev.gantry.azure.keyvault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.identity.CredentialUnavailableException;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.azure.fakes.KeyVaultFake;
import dev.gantry.azure.fakes.LocalHttps;
import dev.gantry.azure.fakes.KeyVaultFake.RecordingCredential;
import dev.gantry.azure.fakes.KeyVaultFake.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * {@link KeyVaultSecrets} against {@link KeyVaultFake} through the SDK's whole pipeline: challenge, token, retries,
 * error mapping. The vault URLs are real-looking references; the transport maps them to the fake.
 */
class KeyVaultSecretsTest {
    private static final String VAULT = "https://gantry-models.vault.azure.net";
    private static final String VALUE = "hf_s3cr3t-V4lue";

    // The SDK caches a vault's challenge for the life of the JVM, keyed by host and port: a fake that got a closed
    // fake's port would see no challenge. So every fake keeps its port until the last test has run.
    private static final List<KeyVaultFake> FAKES = new ArrayList<>();

    private KeyVaultFake vault;
    private RecordingCredential credential;
    private final AtomicInteger credentialsCreated = new AtomicInteger();
    private final List<String> clientsBuilt = new ArrayList<>();

    @BeforeEach
    void startVault() throws Exception {
        vault = new KeyVaultFake();
        FAKES.add(vault);
        credential = KeyVaultFake.credential(KeyVaultFake.TOKEN);
    }

    @AfterAll
    static void stopVaults() {
        FAKES.forEach(KeyVaultFake::close);
    }

    /** The production class, with a transport that sends every vault to the fake (as a test may only). */
    private KeyVaultSecrets secrets(TokenCredential tokens, boolean verifyChallengeResource) {
        KeyVaultSecrets.Transport toFake = new KeyVaultSecrets.Transport(Optional.of(LocalHttps.trustingHttpClient()),
                vaultUrl -> {
                    clientsBuilt.add(vaultUrl);
                    return vault.url();
                }, verifyChallengeResource);
        return new KeyVaultSecrets(() -> {
            credentialsCreated.incrementAndGet();
            return tokens;
        }, toFake);
    }

    private KeyVaultSecrets secrets() {
        // The fake listens on 127.0.0.1, outside the challenge's resource domain vault.azure.net: the SDK refuses
        // such a challenge unless told not to check (see theSdkRefusesAChallengeOutsideTheVaultsDomain).
        return secrets(credential, false);
    }

    private static SecretRef ref(String text) {
        return SecretRef.parse(text);
    }

    @Test
    void aSecretResolvesToItsLatestValueAfterTheChallenge() {
        vault.put("hf-token", "an-older-value");
        vault.put("hf-token", VALUE);

        assertEquals(VALUE, secrets().fetch(ref(VAULT + "/secrets/hf-token")).reveal());

        List<Request> requests = vault.requests();
        assertEquals(2, requests.size(), "the challenge round trip, then the authorized request: " + requests);
        assertEquals(Optional.empty(), requests.get(0).authorization());
        assertEquals(Optional.of("Bearer " + KeyVaultFake.TOKEN), requests.get(1).authorization());
        // The SDK asks for an empty version, which Key Vault reads as the latest.
        assertEquals("/secrets/hf-token/", requests.get(1).path());
        assertTrue(requests.get(1).query().containsKey("api-version"), requests.get(1).query().toString());
    }

    @Test
    void aThrottledReadIsRetriedAfterItsRetryAfter() {
        vault.put("hf-token", VALUE);
        vault.throttle(1, "1");

        assertEquals(VALUE, secrets().fetch(ref(VAULT + "/secrets/hf-token")).reveal());

        List<Request> requests = vault.requests();
        assertEquals(3, requests.size(), "the challenge, the throttled request, its retry: " + requests);
        assertEquals(requests.get(1), requests.get(2), "the same request again");
    }

    @Test
    void theTokenIsAskedForTheChallengesTenantAndResource() {
        vault.put("hf-token", VALUE);
        secrets().fetch(ref(VAULT + "/secrets/hf-token"));

        List<TokenRequestContext> asked = credential.requests();
        assertEquals(1, asked.size());
        assertEquals(List.of(KeyVaultFake.RESOURCE + "/.default"), asked.get(0).getScopes());
        assertEquals(KeyVaultFake.TENANT, asked.get(0).getTenantId());
    }

    @Test
    void aPinnedVersionResolvesToThatVersionNotTheLatest() {
        String first = vault.put("hf-token", VALUE);
        vault.put("hf-token", "a-newer-value");

        assertEquals(VALUE, secrets().fetch(ref(VAULT + "/secrets/hf-token/" + first)).reveal());
        assertEquals("/secrets/hf-token/" + first, vault.requests().get(vault.requests().size() - 1).path());
    }

    @Test
    void clientsAndTheirTokensAreReusedPerVault() {
        vault.put("hf-token", VALUE);
        vault.put("wandb-key", "another-value");
        KeyVaultSecrets secrets = secrets();

        secrets.fetch(ref(VAULT + "/secrets/hf-token"));
        secrets.fetch(ref(VAULT + "/secrets/wandb-key"));
        secrets.fetch(ref(VAULT + "/secrets/hf-token/"));
        assertEquals(List.of(VAULT), clientsBuilt);
        assertEquals(1, credential.requests().size(), "one token for one vault");

        secrets.fetch(ref("https://gantry-data.vault.azure.net/secrets/hf-token"));
        assertEquals(List.of(VAULT, "https://gantry-data.vault.azure.net"), clientsBuilt);
        assertEquals(1, credentialsCreated.get(), "one credential for all vaults");
    }

    @Test
    void aMissingSecretNamesTheReferenceAndHowToFindTheRightName() {
        vault.put("hf-token", VALUE);
        GantryException e = assertThrows(GantryException.class,
                () -> secrets().fetch(ref(VAULT + "/secrets/hf-tokn")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-tokn: the vault gantry-models has no secret 'hf-tokn' (Key "
                + "Vault answered 404 SecretNotFound); check the name with az keyvault secret list --vault-name "
                + "gantry-models", e.getMessage());
        assertNoValueIn(e);
    }

    @Test
    void aMissingVersionSaysToDropOrFixTheVersion() {
        vault.put("hf-token", VALUE);
        String missing = "0123456789abcdef0123456789abcdef";
        GantryException e = assertThrows(GantryException.class,
                () -> secrets().fetch(ref(VAULT + "/secrets/hf-token/" + missing)));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-token/" + missing + ": the vault gantry-models has no version '"
                + missing + "' of secret 'hf-token' (Key Vault answered 404 SecretNotFound); list its versions with "
                + "az keyvault secret list-versions --vault-name gantry-models --name hf-token, or leave the version "
                + "out to take the latest", e.getMessage());
        assertNoValueIn(e);
    }

    @Test
    void aForbiddenCallerIsToldWhichRoleToGrant() {
        vault.put("hf-token", VALUE);
        vault.forbidCaller();
        GantryException e = assertThrows(GantryException.class,
                () -> secrets().fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-token: your identity may not read secrets in the vault "
                + "gantry-models (Key Vault answered 403 Forbidden, ForbiddenByRbac); grant it the Key Vault Secrets "
                + "User role on the vault, or a get-secret access policy if the vault uses access policies",
                e.getMessage());
        assertNoValueIn(e);
    }

    @Test
    void aDisabledVersionIsToldApartFromAMissingRole() {
        String version = vault.put("hf-token", VALUE);
        vault.disable("hf-token", version);
        GantryException e = assertThrows(GantryException.class,
                () -> secrets().fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-token: this version of secret 'hf-token' is disabled (Key "
                + "Vault answered 403 Forbidden, SecretDisabled); enable it with az keyvault secret set-attributes "
                + "--enabled true, or reference an enabled version", e.getMessage());
        assertNoValueIn(e);
    }

    @Test
    void aRefusedTokenSaysToSignInToTheVaultsTenant() {
        vault.put("hf-token", VALUE);
        GantryException e = assertThrows(GantryException.class,
                () -> secrets(KeyVaultFake.credential("a-token-from-another-tenant"), false)
                        .fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-token: Key Vault refused the token (401 Unauthorized); sign in "
                + "to the vault's tenant (az login --tenant " + KeyVaultFake.TENANT + ") or check the managed "
                + "identity gantry runs as",
                e.getMessage());
        assertNoValueIn(e);
        List<Request> requests = vault.requests();
        assertEquals(Optional.of("Bearer a-token-from-another-tenant"),
                requests.get(requests.size() - 1).authorization());
    }

    @Test
    void aCredentialThatGetsNoTokenSaysToSignIn() {
        vault.put("hf-token", VALUE);
        TokenCredential signedOut = request -> Mono.error(new CredentialUnavailableException(
                "DefaultAzureCredential failed to retrieve a token from the included credentials."));
        GantryException e = assertThrows(GantryException.class,
                () -> secrets(signedOut, false).fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/secrets/hf-token: no Azure credential could get a token for Key Vault "
                + "(CredentialUnavailableException); sign in with az login, or run gantry where a managed identity "
                + "is available", e.getMessage());
        assertTrue(vault.requests().stream().allMatch(r -> r.authorization().isEmpty()), vault.requests().toString());
    }

    @Test
    void theSdkRefusesAChallengeOutsideTheVaultsDomain() {
        // Production keeps the SDK's check: a host that is not *.vault.azure.net gets no Key Vault token.
        vault.put("hf-token", VALUE);
        GantryException e = assertThrows(GantryException.class,
                () -> secrets(credential, true).fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertTrue(credential.requests().isEmpty(), "no token may be handed out: " + credential.requests());
        assertFalse(vault.requests().isEmpty());
        assertTrue(vault.requests().stream().allMatch(r -> r.authorization().isEmpty()), vault.requests().toString());
        assertTrue(e.getMessage().startsWith("secret " + VAULT + "/secrets/hf-token: Key Vault did not return it"),
                e.getMessage());
    }

    @Test
    void aValueThatArrivedInABrokenAnswerIsNeitherQuotedNorKeptInTheCause() {
        vault.put("hf-token", VALUE);
        vault.cutBundlesShort();
        GantryException e = assertThrows(GantryException.class,
                () -> secrets().fetch(ref(VAULT + "/secrets/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertTrue(e.getMessage().startsWith("secret " + VAULT + "/secrets/hf-token: Key Vault did not return it ("),
                e.getMessage());
        assertNoValueIn(e);
    }

    @Test
    void aMalformedReferenceFailsNamingThePartBeforeAnyCredentialExists() {
        GantryException e = assertThrows(GantryException.class, () -> secrets().fetch(
                new SecretRef(SecretRef.Kind.KEY_VAULT, VAULT + "/keys/hf-token")));
        assertEquals(ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals("secret " + VAULT + "/keys/hf-token: not a Key Vault secret reference: the path must be "
                + "/secrets/NAME or /secrets/NAME/VERSION, got '/keys/hf-token' (that names a Key Vault key, not a "
                + "secret); write it as https://VAULT.vault.azure.net/secrets/NAME[/VERSION]", e.getMessage());
        assertEquals(0, credentialsCreated.get());
        assertTrue(vault.requests().isEmpty());
    }

    private static void assertNoValueIn(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(VALUE), "the value leaked into " + t);
            assertFalse(t.toString().contains(VALUE), "the value leaked into " + t);
        }
    }

    @Test
    void aCloudThatCannotBeChosenIsReportedAsItselfNotAsAnUnresolvedSecret() {
        GantryException badCloud = new GantryException(ErrorCode.USAGE, "AZURE_CLOUD: 'AzureMars' is not a cloud "
                + "Gantry knows");
        KeyVaultSecrets secrets = new KeyVaultSecrets(() -> {
            throw badCloud;
        });
        GantryException e = assertThrows(GantryException.class, () -> secrets.fetch(ref(VAULT + "/secrets/hf")));
        assertEquals(badCloud, e);
    }
}
