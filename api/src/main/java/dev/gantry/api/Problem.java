package dev.gantry.api;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing wrong with an input: the field path (dotted, with {@code [i]} for list elements, empty for the document
 * itself), a message that names the value given and what is allowed, and where it was read when it came from a file.
 * Rendered as {@code FILE:LINE:COL: FIELD.PATH: message}.
 */
public record Problem(Optional<SourceLocation> location, String path, String message) {
    public Problem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    public static Problem of(String path, String message) {
        return new Problem(Optional.empty(), path, message);
    }

    public Problem at(SourceLocation where) {
        return new Problem(Optional.of(where), path, message);
    }

    /** The same problem under a parent field: {@code resources} + {@code gpus} gives {@code resources.gpus}. */
    public Problem under(String parent) {
        String joined = path.isEmpty() ? parent : path.startsWith("[") ? parent + path : parent + "." + path;
        return new Problem(location, joined, message);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        location.ifPresent(where -> text.append(where).append(": "));
        if (!path.isEmpty()) {
            text.append(path).append(": ");
        }
        return text.append(message).toString();
    }
}
