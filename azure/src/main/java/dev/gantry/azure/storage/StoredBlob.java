package dev.gantry.azure.storage;

import java.time.Instant;
import java.util.Objects;

/**
 * A blob as a container listing shows it: its name (relative to the container), when it was last written, its size.
 * Enough for {@code gantry gc} to find the orphans of tasks that ended without their blob being deleted.
 */
public record StoredBlob(String name, Instant lastModified, long size) {
    public StoredBlob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(lastModified, "lastModified");
    }
}
