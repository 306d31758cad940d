package dev.gantry.api.backend;

/** Receives log lines in order; called on the thread that called {@link Backend#logs}. */
@FunctionalInterface
public interface LogSink {
    void accept(LogLine line);
}
