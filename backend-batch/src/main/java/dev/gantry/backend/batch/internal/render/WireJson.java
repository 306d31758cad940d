package dev.gantry.backend.batch.internal.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.microsoft.azure.serializer.AzureJacksonAdapter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * The protocol models as JSON, written and read by the serializer the SDK's own client uses
 * ({@code BatchClient.open} builds its RestClient with an {@link AzureJacksonAdapter}), so that what golden files
 * show and what chunking measures is what goes on the wire.
 */
public final class WireJson {
    private static final AzureJacksonAdapter ADAPTER = new AzureJacksonAdapter();

    private WireJson() {
    }

    /** The body exactly as the client sends it. */
    public static String compact(Object model) {
        try {
            return ADAPTER.serialize(model);
        } catch (IOException e) {
            throw new UncheckedIOException("the SDK's serializer failed on a " + model.getClass().getSimpleName(), e);
        }
    }

    /** The same JSON, indented: the form golden files keep (same mapper, same fields, same order). */
    public static String pretty(Object model) {
        try {
            return ADAPTER.serializer().writerWithDefaultPrettyPrinter().writeValueAsString(model) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("the SDK's serializer failed on a " + model.getClass().getSimpleName(), e);
        }
    }

    /** The body's size in bytes as sent (UTF-8). */
    public static int bytes(Object model) {
        return compact(model).getBytes(StandardCharsets.UTF_8).length;
    }

    /** A model read from Batch's JSON, as the client reads a reply. */
    public static <T> T read(String json, Type type) {
        try {
            return ADAPTER.deserialize(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException("not a " + type.getTypeName() + " as Batch writes it: " + e.getMessage(), e);
        }
    }
}
