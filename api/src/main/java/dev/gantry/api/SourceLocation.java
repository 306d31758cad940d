package dev.gantry.api;

import java.util.Objects;

/** Where in a file a value was read: 1-based line and column. */
public record SourceLocation(String file, int line, int column) {
    public SourceLocation {
        Objects.requireNonNull(file, "file");
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
