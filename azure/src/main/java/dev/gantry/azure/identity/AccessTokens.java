package dev.gantry.azure.identity;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.cloud.AzureSignIn;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Microsoft Entra ID access tokens for a scope, JDK-typed in and out, for clients that are not the Azure SDK's own
 * (the Batch data-plane SDK's OkHttp client). Signed in as {@code ArmConnector.defaultAzureCredential()} signs in:
 * the {@code DefaultAzureCredential} chain, made on the first token asked for, so that a program that never asks
 * never touches Azure. Each scope's token is kept until {@link #REFRESH_BEFORE_EXPIRY} before it expires, so a
 * client may ask once per request.
 */
public final class AccessTokens {
    /** A token this close to its expiry is fetched again: a request signed with it could arrive after it expired. */
    public static final Duration REFRESH_BEFORE_EXPIRY = Duration.ofMinutes(5);

    private final Supplier<TokenCredential> credentials;
    private final Clock clock;
    private final Map<String, AccessToken> tokens = new ConcurrentHashMap<>();
    private volatile TokenCredential credential;

    /**
     * The {@code DefaultAzureCredential} chain (environment, workload identity, managed identity, Azure CLI, ...) of
     * the cloud the environment chooses ({@code dev.gantry.azure.cloud.CloudChoice}).
     */
    public AccessTokens() {
        this(AzureSignIn::defaultCredential);
    }

    /** Tokens from a credential of the caller's choosing (a test's fake issuer, a service principal). */
    public AccessTokens(Supplier<TokenCredential> credentials) {
        this(credentials, Clock.systemUTC());
    }

    AccessTokens(Supplier<TokenCredential> credentials, Clock clock) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The token for {@code scope} (e.g. {@code https://batch.core.windows.net//.default}), without the
     * {@code Bearer } prefix. Fails with {@code AUTH_FAILED} naming the scope and how to sign in.
     */
    public String token(String scope) {
        Objects.requireNonNull(scope, "scope");
        AccessToken cached = tokens.get(scope);
        if (cached != null && fresh(cached)) {
            return cached.getToken();
        }
        AccessToken fetched = fetch(scope);
        tokens.put(scope, fetched);
        return fetched.getToken();
    }

    private boolean fresh(AccessToken token) {
        return token.getExpiresAt().isAfter(OffsetDateTime.now(clock).plus(REFRESH_BEFORE_EXPIRY));
    }

    private AccessToken fetch(String scope) {
        TokenCredential signIn = credential();
        AccessToken token;
        try {
            token = signIn.getTokenSync(new TokenRequestContext().addScopes(scope));
        } catch (RuntimeException e) {
            throw new GantryException(ErrorCode.AUTH_FAILED, "could not get a Microsoft Entra ID token for " + scope
                    + ": " + firstLine(e.getMessage()) + ". Sign in with az login, or set AZURE_TENANT_ID, "
                    + "AZURE_CLIENT_ID and AZURE_CLIENT_SECRET (or a federated token), or run with a managed "
                    + "identity; the identity also needs a role on the resource the token is for.", e);
        }
        if (token == null || token.getToken() == null || token.getToken().isEmpty()) {
            throw new GantryException(ErrorCode.AUTH_FAILED, "Microsoft Entra ID answered without a token for "
                    + scope + "; check the credential Gantry signs in with (az account show)");
        }
        return token;
    }

    private TokenCredential credential() {
        TokenCredential made = credential;
        if (made == null) {
            synchronized (this) {
                if (credential == null) {
                    credential = Objects.requireNonNull(credentials.get(), "credential");
                }
                made = credential;
            }
        }
        return made;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "no reason given";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
