package dev.gantry.images;

import java.util.Optional;

/**
 * Rewrites container image names, e.g. to pull through a private registry mirror. Implementations are created by an
 * {@link ImageNameRewriterProvider} found with {@link java.util.ServiceLoader}, and applied by a
 * {@link ContainerImageResolver} in priority order.
 */
public interface ImageNameRewriter {
    /** A short name shown in the resolver's record of what it did. */
    String name();

    /** Higher runs first; ties are broken by {@link #name()}. */
    default int priority() {
        return 0;
    }

    /** The rewritten name, or empty to leave the image as it is. */
    Optional<ContainerImageName> rewrite(ContainerImageName image);
}
