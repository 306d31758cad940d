package dev.gantry.model;

/** Where a workflow run stands as a whole. */
public enum RunState {
    RUNNING,
    SUCCEEDED,
    FAILED,
    CANCELLED;

    /** Whether the run has ended: nothing of it is left to do, and it gets an end time. */
    public boolean finished() {
        return this != RUNNING;
    }
}
