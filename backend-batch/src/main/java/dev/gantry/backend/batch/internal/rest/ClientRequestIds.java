package dev.gantry.backend.batch.internal.rest;

import java.io.IOException;
import java.util.UUID;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Sends a fresh {@code client-request-id} (a UUID) with every request, and {@code return-client-request-id: true} so
 * that Batch echoes it: a failure can then be named by an id both sides logged. As a header, set here: the SDK's
 * wrappers put the UUID into the options object instead, where client-runtime's validator reflects into
 * {@code java.util.UUID} and fails on Java 17 without {@code --add-opens}. An id already set by the caller is kept.
 */
final class ClientRequestIds implements Interceptor {
    static final String HEADER = "client-request-id";
    static final String RETURN_HEADER = "return-client-request-id";

    @Override
    public Response intercept(Chain chain) throws IOException {
        String id = chain.request().header(HEADER);
        return chain.proceed(chain.request().newBuilder()
                .header(HEADER, id == null ? UUID.randomUUID().toString() : id)
                .header(RETURN_HEADER, "true")
                .build());
    }
}
