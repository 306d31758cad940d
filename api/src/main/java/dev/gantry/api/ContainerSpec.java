package dev.gantry.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The container a workload runs in: an image reference of the form {@code [registry/]repository[:tag|@digest]}.
 * Backends run it with the NVIDIA container runtime (or the AMD device flags) when the plan has GPUs.
 */
public record ContainerSpec(String image) {
    // registry (optional, with port) / path components / optional tag / optional digest
    private static final Pattern IMAGE = Pattern.compile(
            "^(?:(?<registry>[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?(?::[0-9]+)?)/)?"
                    + "(?<repo>[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)"
                    + "(?::(?<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?"
                    + "(?:@(?<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$");

    public ContainerSpec {
        Objects.requireNonNull(image, "image");
        Checks checks = new Checks();
        checks.require(isValidImage(image), "image", "must be [registry/]repository[:tag|@digest] with a lower-case "
                + "repository, got '" + image + "' (for example nvcr.io/nvidia/pytorch:24.05-py3)");
        checks.throwIfAny();
    }

    public static boolean isValidImage(String image) {
        return image != null && image.length() <= 512 && IMAGE.matcher(image).matches();
    }
}
