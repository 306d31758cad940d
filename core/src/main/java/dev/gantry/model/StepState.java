package dev.gantry.model;

/** Where one step of a workflow run stands. */
public enum StepState {
    /** Its dependencies have not all succeeded yet. */
    WAITING,
    /** Free to be submitted. */
    READY,
    /** A job was submitted for it and has not started. */
    SUBMITTED,
    /** Its job is running. */
    RUNNING,
    /** Its last attempt failed or was evicted; the next one waits until the step's next attempt time. */
    RETRY_WAIT,
    /** Every instance's job succeeded. */
    SUCCEEDED,
    /** A job failed and the step's retries are used up. */
    FAILED,
    /** The run was cancelled while the step was active. */
    CANCELLED,
    /** Never run, because a step it depends on did not succeed. */
    SKIPPED;

    /** {@return whether the step has ended and will not run again (unless retried by hand)} */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == SKIPPED;
    }
}
