package dev.gantry.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The container a workload runs in: an image reference of the form {@code [registry/]repository[:tag|@digest]}.
 * Backends run it with the NVIDIA container runtime (or the AMD device flags) when the plan has GPUs.
 *
 * @param image the image reference, e.g. {@code nvcr.io/nvidia/pytorch:24.05-py3}
 */
public record ContainerSpec(String image) {
    /** The longest image reference accepted. */
    public static final int MAX_IMAGE_LENGTH = 512;
    private static final Pattern REGISTRY = Pattern.compile(
            "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?");
    private static final Pattern REPOSITORY = Pattern.compile(
            "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Pattern DIGEST = Pattern.compile("[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,}");
    private static final Pattern SHA256 = Pattern.compile("sha256:[0-9a-f]{64}");

    /**
     * Checks the image reference with {@link #isValidImage(String)}.
     *
     * @param image the image reference
     * @throws NullPointerException when {@code image} is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when it is not a valid reference; the message
     *     shows the form expected and an example
     */
    public ContainerSpec {
        Objects.requireNonNull(image, "image");
        Checks checks = new Checks();
        checks.require(isValidImage(image), "image", "must be [registry/]repository[:tag|@digest] with a lower-case "
                + "repository, got '" + image + "' (for example nvcr.io/nvidia/pytorch:24.05-py3)");
        checks.throwIfAny();
    }

    /**
     * The one definition of a valid image reference, read the way Docker reads it: everything after the first
     * {@code @} is the digest ({@code algorithm:hex}; a sha256 digest is exactly 64 lower-case hex digits), a
     * {@code :} after the last {@code /} starts the tag, and the part before the first {@code /} is the registry
     * ({@code host[:port]}) when it has a {@code .} or a {@code :} or is {@code localhost}; the rest is the repository,
     * lower-case components separated by {@code /}. At most {@value #MAX_IMAGE_LENGTH} characters.
     * {@code dev.gantry.images.ContainerImageName} takes its accept/reject decision from here and explains it.
     *
     * @param image the reference to check; null and the empty string are invalid
     * @return whether Docker would accept it as an image reference
     */
    public static boolean isValidImage(String image) {
        if (image == null || image.isEmpty() || image.length() > MAX_IMAGE_LENGTH) {
            return false;
        }
        String rest = image;
        int at = rest.indexOf('@');
        if (at >= 0) {
            String digest = rest.substring(at + 1);
            boolean sha256 = digest.startsWith("sha256:");
            if (!DIGEST.matcher(digest).matches() || sha256 && !SHA256.matcher(digest).matches()) {
                return false;
            }
            rest = rest.substring(0, at);
        }
        int colon = rest.lastIndexOf(':');
        if (colon > rest.lastIndexOf('/')) {
            if (!TAG.matcher(rest.substring(colon + 1)).matches()) {
                return false;
            }
            rest = rest.substring(0, colon);
        }
        int slash = rest.indexOf('/');
        if (slash >= 0 && namesRegistry(rest.substring(0, slash))) {
            if (!REGISTRY.matcher(rest.substring(0, slash)).matches()) {
                return false;
            }
            rest = rest.substring(slash + 1);
        }
        return REPOSITORY.matcher(rest).matches();
    }

    /**
     * Whether the part before the first {@code /} is a registry host rather than the repository's first part.
     *
     * @param firstPart the text before the first {@code /} of an image reference
     * @return true when it holds a {@code .} or a {@code :} or is {@code localhost}, as Docker decides
     */
    public static boolean namesRegistry(String firstPart) {
        return firstPart.contains(".") || firstPart.contains(":") || firstPart.equals("localhost");
    }
}
