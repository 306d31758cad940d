package dev.gantry.images;

import dev.gantry.api.ContainerSpec;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A container image reference {@code [registry/]repository[:tag|@digest]}, normalized the way Docker reads it: no
 * registry means {@code docker.io}, a one-part Docker Hub repository lives under {@code library/}, and no tag or
 * digest means {@code :latest}.
 *
 * @param registry the registry host, with its port if any, e.g. {@code nvcr.io} or {@code localhost:5000}
 * @param repository the repository path, e.g. {@code nvidia/pytorch}
 * @param tag the tag; empty only when a digest pins the image
 * @param digest the content digest {@code algorithm:hex}, if pinned
 */
public record ContainerImageName(String registry, String repository, Optional<String> tag, Optional<String> digest) {
    public static final String DOCKER_HUB = "docker.io";
    private static final String FIELD = "container.image";
    private static final int MAX_LENGTH = ContainerSpec.MAX_IMAGE_LENGTH;
    private static final Pattern REGISTRY = Pattern.compile(
            "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?");
    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Pattern DIGEST = Pattern.compile("[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,}");
    private static final Pattern SHA256 = Pattern.compile("sha256:[0-9a-f]{64}");

    public ContainerImageName {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(digest, "digest");
        if (tag.isEmpty() && digest.isEmpty()) {
            throw new IllegalArgumentException("an image name needs a tag or a digest: " + registry + "/" + repository);
        }
    }

    /**
     * Parses and normalizes an image reference. Whether it is valid is {@link ContainerSpec#isValidImage}'s decision,
     * so that a spec that reads is an image that parses; the checks here only say what is wrong with a rejected one.
     *
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} naming field {@code container.image} with every
     *     problem found
     */
    public static ContainerImageName parse(String image) {
        if (!ContainerSpec.isValidImage(image)) {
            List<Problem> problems = problems(image);
            // Only a gap in the explanations leaves none; the rejection stands, with the general rule.
            throw invalid(problems.isEmpty() ? List.of(Problem.of(FIELD, "must be [registry/]repository[:tag|@digest]"
                    + " with a lower-case repository, got '" + image + "' (for example "
                    + "nvcr.io/nvidia/pytorch:24.05-py3)")) : problems);
        }
        Parts parts = Parts.of(image);
        String registry = normalizeRegistry(parts.registry().orElse(DOCKER_HUB));
        String repository = parts.repository();
        if (registry.equals(DOCKER_HUB) && !repository.contains("/")) {
            repository = "library/" + repository;
        }
        Optional<String> tag = parts.tag().isEmpty() && parts.digest().isEmpty() ? Optional.of("latest") : parts.tag();
        return new ContainerImageName(registry, repository, tag, parts.digest());
    }

    /** An image reference cut where Docker cuts it, before any part is checked. */
    private record Parts(Optional<String> registry, String repository, Optional<String> tag, Optional<String> digest) {
        static Parts of(String image) {
            String rest = image;
            Optional<String> digest = Optional.empty();
            int at = rest.indexOf('@');
            if (at >= 0) {
                digest = Optional.of(rest.substring(at + 1));
                rest = rest.substring(0, at);
            }
            Optional<String> tag = Optional.empty();
            int colon = rest.lastIndexOf(':');
            if (colon > rest.lastIndexOf('/')) {
                tag = Optional.of(rest.substring(colon + 1));
                rest = rest.substring(0, colon);
            }
            Optional<String> registry = Optional.empty();
            int slash = rest.indexOf('/');
            if (slash >= 0 && ContainerSpec.namesRegistry(rest.substring(0, slash))) {
                registry = Optional.of(rest.substring(0, slash));
                rest = rest.substring(slash + 1);
            }
            return new Parts(registry, rest, tag, digest);
        }
    }

    /** What is wrong with an image reference, part by part; empty when each part is well formed. */
    static List<Problem> problems(String image) {
        if (image == null || image.isEmpty()) {
            return List.of(Problem.of(FIELD, "must be [registry/]repository[:tag|@digest], got '' "
                    + "(for example nvcr.io/nvidia/pytorch:24.05-py3)"));
        }
        if (image.length() > MAX_LENGTH) {
            return List.of(Problem.of(FIELD, "must be at most " + MAX_LENGTH + " characters, got " + image.length()));
        }
        List<Problem> problems = new ArrayList<>();
        Parts parts = Parts.of(image);
        parts.digest().ifPresent(d -> {
            if (!DIGEST.matcher(d).matches()) {
                problems.add(Problem.of(FIELD, "digest '" + d + "' in '" + image + "' must be algorithm:hex, e.g. "
                        + "sha256: followed by 64 lower-case hex digits"));
            } else if (d.startsWith("sha256:") && !SHA256.matcher(d).matches()) {
                problems.add(Problem.of(FIELD, "digest '" + d + "' in '" + image + "' must be sha256: followed by "
                        + "exactly 64 lower-case hex digits, got " + (d.length() - 7) + " characters"));
            }
        });
        parts.tag().filter(t -> !TAG.matcher(t).matches()).ifPresent(t -> problems.add(Problem.of(FIELD, "tag '" + t
                + "' in '" + image + "' must be 1-128 letters, digits, '_', '.' or '-', not starting with '.' or "
                + "'-'")));
        parts.registry().filter(r -> !REGISTRY.matcher(r).matches()).ifPresent(r -> problems.add(Problem.of(FIELD,
                "registry '" + r + "' in '" + image + "' must be a host name with an optional :port, e.g. "
                        + "myacr.azurecr.io or localhost:5000")));
        if (parts.repository().isEmpty()) {
            problems.add(Problem.of(FIELD, "'" + image + "' names no repository; write e.g. nvcr.io/nvidia/pytorch"));
        } else {
            for (String component : parts.repository().split("/", -1)) {
                if (!COMPONENT.matcher(component).matches()) {
                    String hint = !component.equals(component.toLowerCase(Locale.ROOT))
                            ? "; repositories are lower case: write '" + component.toLowerCase(Locale.ROOT) + "'"
                            : "";
                    problems.add(Problem.of(FIELD, "repository part '" + component + "' in '" + image + "' must be "
                            + "lower-case letters and digits separated by '.', '_', '__' or '-'" + hint));
                }
            }
        }
        return problems;
    }

    private static String normalizeRegistry(String registry) {
        String lower = registry.toLowerCase(Locale.ROOT);
        return lower.equals("index.docker.io") || lower.equals("registry-1.docker.io") ? DOCKER_HUB : lower;
    }

    private static GantryException invalid(List<Problem> problems) {
        return GantryException.invalid(ErrorCode.SPEC_INVALID, problems);
    }

    /** The same image from another registry, with a path prefix for the repository (may be empty). */
    public ContainerImageName relocate(String newRegistry, String repositoryPrefix) {
        String prefix = repositoryPrefix.isEmpty() || repositoryPrefix.endsWith("/")
                ? repositoryPrefix : repositoryPrefix + "/";
        return new ContainerImageName(newRegistry, prefix + repository, tag, digest);
    }

    /** The full normalized reference, e.g. {@code docker.io/library/ubuntu:22.04}. */
    public String canonical() {
        StringBuilder text = new StringBuilder(registry).append('/').append(repository);
        tag.ifPresent(t -> text.append(':').append(t));
        digest.ifPresent(d -> text.append('@').append(d));
        return text.toString();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
