package dev.gantry.backend.batch.internal.rest;

import com.microsoft.azure.AzureResponseBuilder;
import com.microsoft.rest.RestException;
import com.microsoft.rest.protocol.ResponseBuilder;
import com.microsoft.rest.protocol.SerializerAdapter;

/**
 * Builds responses as {@code BatchClient}'s own factory does: Azure's response builder, with a 404 to a GET thrown
 * as the operation's error ({@code BatchErrorException} with Batch's code, {@code JobNotFound}, {@code TaskNotFound},
 * ...) instead of answered as an empty body. A RestClient of one's own must set it: client-runtime's default answers
 * a GET 404 with {@code null}, which reads as "found, and empty".
 */
final class ThrowOnGet404 implements ResponseBuilder.Factory {
    private final AzureResponseBuilder.Factory azure = new AzureResponseBuilder.Factory();

    @Override
    public <T, E extends RestException> ResponseBuilder<T, E> newInstance(SerializerAdapter<?> serializer) {
        return azure.<T, E>newInstance(serializer).withThrowOnGet404(true);
    }
}
