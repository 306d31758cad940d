package dev.gantry.backend.batch.internal.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.FakeTokenIssuer;
import dev.gantry.azure.fakes.LocalHttps;
import dev.gantry.azure.identity.AccessTokens;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An Entra ID account over HTTPS (the fake's test certificate trusted), and the optional module's check. */
class AccountsEntraTest {
    @Test
    void anEntraAccountSignsEveryCallWithABatchToken() {
        FakeTokenIssuer issuer = new FakeTokenIssuer();
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().account("westus2").https(true).auth(false, true))) {
            BatchSettings settings = new BatchSettings(List.of(new BatchAccountSettings(URI.create(fake.url()),
                    "westus2", BatchAuth.ENTRA, Optional.empty(), Optional.empty())), "gantry-", List.of(), 2,
                    Optional.empty(), Optional.empty(), Duration.ofHours(1), Duration.ofDays(7));
            Accounts.Opener trusting = (url, auth) -> BatchConnection.to(url, auth).trustingForTests(
                    LocalHttps.trustingContext().getSocketFactory(), LocalHttps.trustManager()).open();
            try (Accounts accounts = new Accounts(settings, ref -> {
                throw new AssertionError("an Entra account resolves no key");
            }, () -> new AccessTokens(() -> issuer)::token, trusting)) {
                BatchCalls calls = new BatchCalls(BatchCalls.Policy.defaults());
                BatchAccountSettings account = accounts.forRegion("westus2");
                calls.call("listing pools", () -> accounts.connection(account).protocol().pools().list());
                assertEquals(1, accounts.remoteCalls());
                assertEquals(List.of(dev.gantry.backend.batch.internal.rest.BatchAuth.BATCH_SCOPE), issuer.asked());
                GantryException unknown = assertThrows(GantryException.class, () -> accounts.forRegion("eastus"));
                assertEquals(ErrorCode.USAGE, unknown.code());
                assertTrue(unknown.getMessage().contains("[westus2]"), unknown.getMessage());
            }
        }
    }

    @Test
    void withoutTheAzureModuleTheArtifactToAddIsNamed() throws Exception {
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            assertFalse(AzureModule.present(bare));
            GantryException e = assertThrows(GantryException.class, () -> AzureModule.require(
                    "backends.batch.accounts[0].auth: entra", bare));
            assertEquals(ErrorCode.USAGE, e.code());
            assertTrue(e.getMessage().startsWith("backends.batch.accounts[0].auth: entra needs the Azure module")
                    && e.getMessage().contains(AzureModule.ARTIFACT), e.getMessage());
        }
        assertTrue(AzureModule.present(AzureModule.class.getClassLoader()), "the tests have the module");
    }
}
