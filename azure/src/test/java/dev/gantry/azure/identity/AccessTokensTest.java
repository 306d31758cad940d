package dev.gantry.azure.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.FakeTokenIssuer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AccessTokensTest {
    private static final String BATCH = "https://batch.core.windows.net//.default";
    private static final String STORAGE = "https://storage.azure.com/.default";

    @Test
    void aTokenIsFetchedOncePerScopeAndKeptWhileFresh() {
        FakeTokenIssuer issuer = new FakeTokenIssuer();
        AccessTokens tokens = new AccessTokens(() -> issuer);
        assertEquals("fake-token:" + BATCH, tokens.token(BATCH));
        assertEquals("fake-token:" + BATCH, tokens.token(BATCH));
        assertEquals("fake-token:" + STORAGE, tokens.token(STORAGE));
        assertEquals(List.of(BATCH, STORAGE), issuer.asked());
    }

    @Test
    void aTokenCloseToItsExpiryIsFetchedAgain() {
        FakeTokenIssuer issuer = new FakeTokenIssuer();
        issuer.lifetime(AccessTokens.REFRESH_BEFORE_EXPIRY.minus(Duration.ofSeconds(1)));
        AccessTokens tokens = new AccessTokens(() -> issuer);
        tokens.token(BATCH);
        tokens.token(BATCH);
        assertEquals(List.of(BATCH, BATCH), issuer.asked());
    }

    @Test
    void theCredentialIsMadeOnTheFirstTokenOnly() {
        AtomicInteger made = new AtomicInteger();
        AccessTokens tokens = new AccessTokens(() -> {
            made.incrementAndGet();
            return new FakeTokenIssuer();
        });
        assertEquals(0, made.get(), "nothing touches Azure until a token is asked for");
        tokens.token(BATCH);
        tokens.token(STORAGE);
        assertEquals(1, made.get());
    }

    @Test
    void aRefusedSignInIsAuthFailedNamingTheScopeAndTheFix() {
        FakeTokenIssuer issuer = new FakeTokenIssuer();
        issuer.refuse();
        GantryException e = assertThrows(GantryException.class, () -> new AccessTokens(() -> issuer).token(BATCH));
        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains(BATCH) && e.getMessage().contains("az login"), e.getMessage());
    }

    @Test
    void aCloudThatCannotBeChosenIsReportedAsItselfNotAsAFailedSignIn() {
        GantryException badCloud = new GantryException(ErrorCode.USAGE, "AZURE_CLOUD: 'AzureMars' is not a cloud "
                + "Gantry knows");
        GantryException e = assertThrows(GantryException.class, () -> new AccessTokens(() -> {
            throw badCloud;
        }).token(BATCH));
        assertEquals(badCloud, e);
    }
}
