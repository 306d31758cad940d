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

    /**
     * Checks that every component is given.
     *
     * @param name a short human name
     * @param id the URN, gallery resource ID, or {@code host}
     * @param kind where the image comes from
     * @throws NullPointerException when a component is null
     */
    public ImageRef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * A marketplace image.
     *
     * @param name a short human name, e.g. {@code Ubuntu HPC 22.04}
     * @param urn its URN, {@code publisher:offer:sku:version}
     * @return the reference, of kind {@link Kind#MARKETPLACE}
     */
    public static ImageRef marketplace(String name, String urn) {
        return new ImageRef(name, urn, Kind.MARKETPLACE);
    }

    /**
     * The host's own OS, for machines Gantry does not create (the manual backend, existing clusters).
     *
     * @return the reference named {@code host OS}, id {@code host}, of kind {@link Kind#HOST}
     */
    public static ImageRef host() {
        return new ImageRef("host OS", "host", Kind.HOST);
    }
}
