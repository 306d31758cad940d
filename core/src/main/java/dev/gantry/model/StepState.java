package dev.gantry.model;

/** Where one step of a workflow run stands. */
public enum StepState {
    /** Its dependencies have not all succeeded yet. */
    WAITING,
    /** Free to be submitted. */
    READY,
    /** A job was submitted for it and has not started. */
    SUBMITTED,
    RUNNING,
    /** Its last attempt failed or was evicted; the next one waits until the step's next attempt time. */
    RETRY_WAIT,
    SUCCEEDED,
    FAILED,
    CANCELLED,
    /** Never run, because a step it depends on did not succeed. */
    SKIPPED;

    /** Whether the step has ended and will not run again. */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == SKIPPED;
    }
}
