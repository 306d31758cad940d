package dev.gantry.core.runs;

import dev.gantry.api.backend.Eviction;

/**
 * What platform code hears of a run while a {@link RunEngine} drives it: every event of its history in order (also
 * those another process wrote, such as a cancel asked from another terminal), each step as it changes, and each
 * eviction. Called on the driving thread: a listener should return quickly, and one that throws is reported and
 * does not stop the run.
 */
public interface RunListener {
    /** An event stored in the run's history, numbered. */
    default void event(RunEvent event) {
    }

    /** A step as it stands after a change of state, attempts or evictions. */
    default void stepChanged(StepRecord step) {
    }

    /** A step's capacity was evicted; {@code requeued} when the orchestrator keeps the job and runs it again. */
    default void evicted(String runId, String step, Eviction eviction, boolean requeued) {
    }
}
