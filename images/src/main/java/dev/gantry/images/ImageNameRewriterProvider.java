package dev.gantry.images;

import java.util.Map;

/**
 * A named factory for {@link ImageNameRewriter}s, registered in
 * {@code META-INF/services/dev.gantry.images.ImageNameRewriterProvider}. The configuration arrives as a string map;
 * the provider binds it and fails with the exact key that is wrong.
 */
public interface ImageNameRewriterProvider {
    /** The name that selects this provider in configuration, e.g. {@code registry-mirror}. */
    String name();

    /**
     * Creates a rewriter from its settings.
     *
     * @throws dev.gantry.api.GantryException {@link dev.gantry.api.ErrorCode#CONFIG_INVALID} naming each bad key
     */
    ImageNameRewriter create(Map<String, String> config);
}
