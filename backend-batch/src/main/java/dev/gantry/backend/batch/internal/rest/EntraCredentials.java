package dev.gantry.backend.batch.internal.rest;

import com.microsoft.rest.credentials.ServiceClientCredentials;
import java.util.Objects;
import okhttp3.OkHttpClient;

/**
 * Puts {@code Authorization: Bearer TOKEN} for the account's cloud's Batch scope on every request. The token source is
 * asked per request and caches; a failure to get a token is thrown to the caller as it is (it says what to fix).
 */
final class EntraCredentials implements ServiceClientCredentials {
    private final AccessTokenSource tokens;
    private final String scope;

    EntraCredentials(BatchAuth.Entra entra) {
        this.tokens = Objects.requireNonNull(entra, "entra").tokens();
        this.scope = entra.scope();
    }

    @Override
    public void applyCredentialsFilter(OkHttpClient.Builder client) {
        client.addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                .header("Authorization", "Bearer " + tokens.token(scope)).build()));
    }
}
