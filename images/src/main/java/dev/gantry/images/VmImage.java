package dev.gantry.images;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ImageRef;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A VM image and what it contains, so that the chooser, the compatibility checks and the boot script can reason
 * about it.
 *
 * @param name a short human name, e.g. {@code Ubuntu HPC 22.04}
 * @param id the marketplace URN ({@code publisher:offer:sku:version}) or Azure Compute Gallery image resource ID
 * @param kind where the image comes from
 * @param contents the components the image ships with
 * @param contentsKnown false for user images whose contents Gantry was not told; checks that depend on contents
 *     then warn instead of judging
 * @param hyperVGenerations the Hyper-V generations the image boots on, {@code V1} and/or {@code V2}
 * @param architecture the CPU architecture the image is built for
 * @param secureBootOff true when the VM must be created with security type Standard (Secure Boot off), e.g.
 *     because the image's kernel modules are not signed
 * @param notes free text shown next to the image (sources, caveats)
 */
public record VmImage(
        String name,
        String id,
        ImageRef.Kind kind,
        Set<ImageComponent> contents,
        boolean contentsKnown,
        Set<String> hyperVGenerations,
        Architecture architecture,
        boolean secureBootOff,
        String notes) {

    public VmImage {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(notes, "notes");
        contents = contents.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(contents));
        hyperVGenerations = Set.copyOf(hyperVGenerations);
        if (hyperVGenerations.isEmpty() || !Set.of("V1", "V2").containsAll(hyperVGenerations)) {
            throw new IllegalArgumentException(name + ": Hyper-V generations must be V1 and/or V2, got "
                    + hyperVGenerations);
        }
    }

    /** The reference a plan carries. */
    public ImageRef ref() {
        return new ImageRef(name, id, kind);
    }

    public boolean has(ImageComponent component) {
        return contents.contains(component);
    }

    /** Whether the image ships the driver stack for GPUs of this vendor. */
    public boolean supportsGpus(GpuVendor vendor) {
        return switch (vendor) {
            case NVIDIA -> has(ImageComponent.NVIDIA_DRIVER);
            case AMD -> has(ImageComponent.ROCM);
            case ANY -> has(ImageComponent.NVIDIA_DRIVER) || has(ImageComponent.ROCM);
        };
    }

    public boolean bootsOn(String hyperVGeneration) {
        return hyperVGenerations.contains(hyperVGeneration);
    }
}
