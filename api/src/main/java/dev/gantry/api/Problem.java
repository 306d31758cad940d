package dev.gantry.api;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing wrong with an input: the field path (dotted, with {@code [i]} for list elements, empty for the document
 * itself), a message that names the value given and what is allowed, and where it was read when it came from a file.
 * Rendered as {@code FILE:LINE:COL: FIELD.PATH: message}.
 *
 * @param location where in a file the field was read; empty for input that did not come from a file
 * @param path the field's dotted path, e.g. {@code resources.gpus} or {@code steps[2].name}; empty for the document
 * @param message what is wrong: the value given, what is allowed and the fix
 */
public record Problem(Optional<SourceLocation> location, String path, String message) {
    /**
     * Checks that every component is given.
     *
     * @param location the location, or empty
     * @param path the field path, may be empty
     * @param message the message
     * @throws NullPointerException when a component is null
     */
    public Problem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    /**
     * A problem not yet tied to a place in a file.
     *
     * @param path the field's dotted path, empty for the document itself
     * @param message what is wrong and the fix
     * @return the problem, without a location
     */
    public static Problem of(String path, String message) {
        return new Problem(Optional.empty(), path, message);
    }

    /**
     * The same problem at a place in a file.
     *
     * @param where the file, line and column the field was read at
     * @return a new problem with that location, replacing any it had
     */
    public Problem at(SourceLocation where) {
        return new Problem(Optional.of(where), path, message);
    }

    /**
     * The same problem under a parent field: {@code resources} + {@code gpus} gives {@code resources.gpus}.
     *
     * @param parent the parent field's path; list indexes join without a dot ({@code steps} + {@code [1]})
     * @return a new problem with the joined path, the same location and message
     */
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
