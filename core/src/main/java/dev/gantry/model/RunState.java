package dev.gantry.model;

/** Where a workflow run stands as a whole. */
public enum RunState {
    /** Steps are running or waiting; a driver may take it up. */
    RUNNING,
    /** Every step succeeded. */
    SUCCEEDED,
    /** A step failed with a failure policy that stops the workflow, and nothing is left to run. */
    FAILED,
    /** It was cancelled. */
    CANCELLED;

    /** {@return whether the run has ended: nothing of it is left to do, and it gets an end time} */
    public boolean finished() {
        return this != RUNNING;
    }
}
