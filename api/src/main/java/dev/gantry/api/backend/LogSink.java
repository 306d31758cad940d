package dev.gantry.api.backend;

/** Receives log lines in order; called on the thread that called {@link Backend#logs}. */
@FunctionalInterface
public interface LogSink {
    /**
     * Takes one line. Throwing stops the delivery, and {@link Backend#logs} passes the exception on.
     *
     * @param line the next line
     */
    void accept(LogLine line);
}
