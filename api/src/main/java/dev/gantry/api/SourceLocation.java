package dev.gantry.api;

import java.util.Objects;

/**
 * Where in a file a value was read: 1-based line and column.
 *
 * @param file the file as the user named it (so that messages show the path they typed)
 * @param line the line, from 1
 * @param column the column, from 1
 */
public record SourceLocation(String file, int line, int column) {
    /**
     * Checks that the file is given.
     *
     * @param file the file
     * @param line the line, from 1
     * @param column the column, from 1
     * @throws NullPointerException when {@code file} is null
     */
    public SourceLocation {
        Objects.requireNonNull(file, "file");
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
