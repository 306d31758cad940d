package dev.gantry.api.backend;

import java.util.OptionalInt;

/**
 * Which logs to read.
 *
 * @param follow keep reading until the job ends and its output is drained
 * @param tailLines start with only the last N lines of each stream (empty: from the start)
 * @param stdout include standard output
 * @param stderr include standard error
 */
public record LogOptions(boolean follow, OptionalInt tailLines, boolean stdout, boolean stderr) {
    /** {@return both streams, from the start, without following: the output so far} */
    public static LogOptions all() {
        return new LogOptions(false, OptionalInt.empty(), true, true);
    }

    /** {@return both streams, from the start, following until the job ends} */
    public static LogOptions following() {
        return new LogOptions(true, OptionalInt.empty(), true, true);
    }

    /**
     * The last lines of both streams, without following.
     *
     * @param lines how many lines of each stream, from the end
     * @return the options
     */
    public static LogOptions tail(int lines) {
        return new LogOptions(false, OptionalInt.of(lines), true, true);
    }
}
