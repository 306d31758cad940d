package dev.gantry.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Periodic checkpoints: where the workload writes them and how often. A workload with a checkpoint tolerates spot
 * eviction: it is resumed from the last checkpoint. Gantry exports the path as {@code GANTRY_CHECKPOINT_DIR}.
 *
 * @param path where checkpoints are written: an absolute path on the nodes, or a storage URL ({@code scheme://...})
 * @param every how often the workload writes one; at least {@link #MIN_INTERVAL}
 */
public record Checkpoint(String path, Duration every) {
    /** The shortest checkpoint interval accepted: one minute. */
    public static final Duration MIN_INTERVAL = Duration.ofMinutes(1);

    /**
     * Checks the path and the interval.
     *
     * @param path an absolute path or a storage URL
     * @param every the interval, at least one minute
     * @throws NullPointerException when a component is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID}, naming the field, when the path is relative or
     *     the interval shorter than one minute
     */
    public Checkpoint {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(every, "every");
        Checks checks = new Checks();
        checks.require(path.startsWith("/") || path.contains("://"), "path",
                "must be an absolute path or a storage URL, got '" + path + "'");
        checks.require(every.compareTo(MIN_INTERVAL) >= 0, "every",
                "must be at least 1m, got " + Durations.format(every));
        checks.throwIfAny();
    }
}
