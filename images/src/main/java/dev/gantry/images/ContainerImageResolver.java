package dev.gantry.images;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a workload's container image into the name a node pulls: parses and normalizes it, then applies the
 * configured {@link ImageNameRewriter}s in order (priority, highest first, then name), each seeing the previous
 * result, and records every step.
 */
public final class ContainerImageResolver {
    private static final Comparator<ImageNameRewriter> ORDER = Comparator
            .comparingInt(ImageNameRewriter::priority).reversed()
            .thenComparing(ImageNameRewriter::name);

    private final List<ImageNameRewriter> rewriters;

    public ContainerImageResolver(List<? extends ImageNameRewriter> rewriters) {
        List<ImageNameRewriter> sorted = new ArrayList<>(Objects.requireNonNull(rewriters, "rewriters"));
        sorted.sort(ORDER);
        this.rewriters = List.copyOf(sorted);
    }

    /** A resolver that only normalizes names. */
    public static ContainerImageResolver none() {
        return new ContainerImageResolver(List.of());
    }

    /** The rewriters in the order they are applied. */
    public List<ImageNameRewriter> rewriters() {
        return rewriters;
    }

    /**
     * Resolves an image reference.
     *
     * @throws dev.gantry.api.GantryException {@link dev.gantry.api.ErrorCode#SPEC_INVALID} when it is malformed
     */
    public Resolution resolve(String image) {
        ContainerImageName original = ContainerImageName.parse(image);
        ContainerImageName current = original;
        List<String> steps = new ArrayList<>();
        if (!original.canonical().equals(image)) {
            steps.add("normalized: " + image + " -> " + original.canonical());
        }
        for (ImageNameRewriter rewriter : rewriters) {
            Optional<ContainerImageName> next = rewriter.rewrite(current);
            if (next.isPresent() && !next.get().equals(current)) {
                steps.add(rewriter.name() + ": " + current.canonical() + " -> " + next.get().canonical());
                current = next.get();
            }
        }
        return new Resolution(original, current, steps);
    }

    /**
     * What {@link #resolve} did.
     *
     * @param original the parsed, normalized image the workload named
     * @param resolved the image to pull
     * @param steps one line per change, in order, naming the rewriter
     */
    public record Resolution(ContainerImageName original, ContainerImageName resolved, List<String> steps) {
        public Resolution {
            Objects.requireNonNull(original, "original");
            Objects.requireNonNull(resolved, "resolved");
            steps = List.copyOf(steps);
        }

        public boolean rewritten() {
            return !original.equals(resolved);
        }
    }
}
