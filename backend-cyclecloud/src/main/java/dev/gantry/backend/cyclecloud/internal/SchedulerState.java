package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.backend.JobState;

/** A job's state as a scheduler prints it, read for Gantry: Slurm's, Grid Engine's and PBS's status tables. */
public interface SchedulerState {
    /** What the state is for Gantry. */
    JobState jobState();

    /** How the state counts for tracking. */
    StateKind kind();

    /** Whether reaching this state is an eviction (the job's count of evictions rises). */
    default boolean isEviction() {
        return kind().isEviction();
    }
}
