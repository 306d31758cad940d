package dev.gantry.api.backend;

import java.util.Objects;

/**
 * One line of a job's output, without its line terminator; {@code node} is the rank for multi-node jobs.
 *
 * @param stream which stream it came from; always STDOUT on a backend whose capabilities say its logs are merged
 * @param node the rank of the node that wrote it, 0 for one-node jobs
 * @param text the line, without its terminator
 */
public record LogLine(Stream stream, int node, String text) {
    /** Which output stream a line came from. */
    public enum Stream {
        /** Standard output. */
        STDOUT,
        /** Standard error. */
        STDERR
    }

    /**
     * Checks that the stream and the text are given.
     *
     * @param stream the stream
     * @param node the node's rank
     * @param text the line
     * @throws NullPointerException when {@code stream} or {@code text} is null
     */
    public LogLine {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(text, "text");
    }
}
