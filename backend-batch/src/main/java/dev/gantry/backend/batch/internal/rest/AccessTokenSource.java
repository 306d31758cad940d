package dev.gantry.backend.batch.internal.rest;

/**
 * A Microsoft Entra ID access token for a scope, as the bearer of a request. JDK-typed so that this module never sees
 * {@code com.azure} types: gantry-azure's {@code dev.gantry.azure.identity.AccessTokens#token} fits as a method
 * reference. An implementation caches tokens until shortly before they expire: it is asked once per request.
 */
@FunctionalInterface
public interface AccessTokenSource {
    /**
     * The token (without the {@code Bearer } prefix) for {@code scope}; a failure to get one is thrown, with what to
     * fix (sign in, the identity's role), never answered with an empty token.
     */
    String token(String scope);
}
