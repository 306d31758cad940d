package dev.gantry.model;

/** How one attempt of a step ended; only {@link #FAILED} and {@link #TIMED_OUT} use up the step's retries. */
public enum AttemptOutcome {
    /** The job ended with exit code 0. */
    SUCCEEDED,
    /** The workload's own failure: a non-zero exit, or it could not start. */
    FAILED,
    /** Ran past the step's timeout and was cancelled. */
    TIMED_OUT,
    /** Its capacity was evicted for good; the next attempt resumes from the checkpoint. */
    PREEMPTED,
    /** Cancelled by Gantry to move the step to on-demand capacity after too many evictions. */
    MOVED,
    /** Cancelled on request (the run's, or someone's outside Gantry). */
    CANCELLED;

    /** {@return whether this end counts against the step's {@code retries}: true for FAILED and TIMED_OUT} */
    public boolean failure() {
        return this == FAILED || this == TIMED_OUT;
    }
}
