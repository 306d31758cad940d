package dev.gantry.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Periodic checkpoints: where the workload writes them and how often. A workload with a checkpoint tolerates spot
 * eviction: it is resumed from the last checkpoint. Gantry exports the path as {@code GANTRY_CHECKPOINT_DIR}.
 */
public record Checkpoint(String path, Duration every) {
    public static final Duration MIN_INTERVAL = Duration.ofMinutes(1);

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
