package dev.gantry.model;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.LogLine;

/**
 * What platform code hears of a run while the run engine drives it: every event of its history in order (also
 * those another process wrote, such as a cancel asked from another terminal), each step as it changes, and each
 * eviction; and, for a listener that {@link #wantsLogs() wants them}, every line the steps' jobs print. Called on the
 * driving thread (log lines: on one thread per job followed): a listener should return quickly and be safe to call
 * from several threads, and one that throws is reported and does not stop the run.
 */
public interface RunListener {
    /**
     * An event stored in the run's history, numbered. Does nothing by default.
     *
     * @param event the event, with its sequence number
     */
    default void event(RunEvent event) {
    }

    /**
     * A step as it stands after a change of state, attempts or evictions. Does nothing by default.
     *
     * @param step the step's record after the change
     */
    default void stepChanged(StepRecord step) {
    }

    /**
     * A step's capacity was evicted. Does nothing by default.
     *
     * @param runId the run's id
     * @param step the step's or matrix instance's name
     * @param eviction when and why, in the orchestrator's words
     * @param requeued true when the orchestrator keeps the job and runs it again; false when the job ended PREEMPTED
     *     and the engine submits a new attempt
     */
    default void evicted(String runId, String step, Eviction eviction, boolean requeued) {
    }

    /**
     * Whether this listener wants the steps' output ({@link #logLine}). Following a job's output costs a stream from
     * its backend while it runs, so only listeners that ask get it.
     *
     * @return true to get {@link #logLine} calls; false by default
     */
    default boolean wantsLogs() {
        return false;
    }

    /**
     * A line a step's job printed, on standard output or standard error, while the run is driven. Called only when
     * {@link #wantsLogs()}; does nothing by default.
     *
     * @param runId the run's id
     * @param step the step's or matrix instance's name
     * @param line the line, with its stream and node
     */
    default void logLine(String runId, String step, LogLine line) {
    }
}
