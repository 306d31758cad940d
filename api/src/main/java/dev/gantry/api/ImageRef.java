package dev.gantry.api;

import java.util.Objects;

/**
 * The VM image a plan boots: a marketplace URN ({@code publisher:offer:sku:version}), an Azure Compute Gallery image
 * ID, or the host's own OS for machines Gantry does not create.
 *
 * @param name a short human name, e.g. {@code Ubuntu HPC 22.04}
 * @param id the URN, gallery resource ID, or {@code host} for {@link Kind#HOST}
 * @param kind where the image comes from
 */
public record ImageRef(String name, String id, Kind kind) {
    /** Where an image comes from. */
    public enum Kind {
        /** An Azure Marketplace image, by URN. */
        MARKETPLACE,
        /** An image in an Azure Compute Gallery, by resource ID. */
        GALLERY,
        /** Whatever the host already runs (manually managed machines). */
        HOST
    }

    public ImageRef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
    }

    public static ImageRef marketplace(String name, String urn) {
        return new ImageRef(name, urn, Kind.MARKETPLACE);
    }

    public static ImageRef host() {
        return new ImageRef("host OS", "host", Kind.HOST);
    }
}
