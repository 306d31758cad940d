package dev.gantry.azure.fakes;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;

/**
 * A stand-in for Microsoft Entra ID: a credential that hands out {@code fake-token:SCOPE} for each scope asked, valid
 * for {@link #lifetime} (an hour unless told). A fake service checks a bearer token's scope with {@link #scopeOf}: the
 * Batch fake wants {@code https://batch.core.windows.net//.default}, {@link BlobFake} wants
 * {@code https://storage.azure.com/.default}, {@link ArmFake} a {@code https://management.} scope. It records every
 * scope asked, so a test can count how often a client fetched a token.
 */
public final class FakeTokenIssuer implements TokenCredential {
    /** What every token starts with, before its scope. */
    public static final String PREFIX = "fake-token:";

    private final List<String> asked = new CopyOnWriteArrayList<>();
    private volatile Duration lifetime = Duration.ofHours(1);
    private volatile boolean refusing;

    @Override
    public Mono<AccessToken> getToken(TokenRequestContext request) {
        return Mono.fromCallable(() -> issue(request));
    }

    @Override
    public AccessToken getTokenSync(TokenRequestContext request) {
        return issue(request);
    }

    private AccessToken issue(TokenRequestContext request) {
        String scope = String.join(" ", request.getScopes());
        asked.add(scope);
        if (refusing) {
            throw new IllegalStateException("the fake issuer refuses: no signed-in identity (as az login not run)");
        }
        return new AccessToken(token(scope), OffsetDateTime.now().plus(lifetime));
    }

    /** The token this issuer hands out for {@code scope}. */
    public static String token(String scope) {
        return PREFIX + scope;
    }

    /** The scope of a token this issuer handed out ({@code Bearer } prefix or not); empty for any other token. */
    public static Optional<String> scopeOf(String token) {
        if (token == null) {
            return Optional.empty();
        }
        String bare = token.startsWith("Bearer ") ? token.substring("Bearer ".length()) : token;
        return bare.startsWith(PREFIX) ? Optional.of(bare.substring(PREFIX.length())) : Optional.empty();
    }

    /** Every scope asked so far, in order. */
    public List<String> asked() {
        return List.copyOf(asked);
    }

    /** Tokens issued from now on expire this long after they are issued. */
    public void lifetime(Duration lifetime) {
        this.lifetime = lifetime;
    }

    /** From now on every request for a token fails, as an identity that cannot sign in does. */
    public void refuse() {
        refusing = true;
    }
}
