package dev.gantry.api.backend;

import java.util.Objects;

/** One line of a job's output, without its line terminator; {@code node} is the rank for multi-node jobs. */
public record LogLine(Stream stream, int node, String text) {
    /** Which output stream a line came from. */
    public enum Stream {
        STDOUT,
        STDERR
    }

    public LogLine {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(text, "text");
    }
}
