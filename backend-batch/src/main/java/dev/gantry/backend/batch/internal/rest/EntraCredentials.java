package dev.gantry.backend.batch.internal.rest;

import com.microsoft.rest.credentials.ServiceClientCredentials;
import java.util.Objects;
import okhttp3.OkHttpClient;

/**
 * Puts {@code Authorization: Bearer TOKEN} for {@link BatchAuth#BATCH_SCOPE} on every request. The token source is
 * asked per request and caches; a failure to get a token is thrown to the caller as it is (it says what to fix).
 */
final class EntraCredentials implements ServiceClientCredentials {
    private final AccessTokenSource tokens;

    EntraCredentials(AccessTokenSource tokens) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
    }

    @Override
    public void applyCredentialsFilter(OkHttpClient.Builder client) {
        client.addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                .header("Authorization", "Bearer " + tokens.token(BatchAuth.BATCH_SCOPE)).build()));
    }
}
