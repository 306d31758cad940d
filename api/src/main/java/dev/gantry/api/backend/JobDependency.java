package dev.gantry.api.backend;

import java.util.Objects;

/**
 * A job that must end before the submitted one may start, and how it must end. Backends whose orchestrator orders
 * jobs itself ({@link Capabilities#nativeDependencies()}) pass these down (Slurm {@code --dependency=afterok:},
 * Azure Batch task dependencies); for the others core submits a job only once its dependencies have ended, so such a
 * backend may ignore them.
 *
 * @param job the job depended on, a reference this same backend returned
 * @param condition how it must end for the dependent job to start
 */
public record JobDependency(JobRef job, Condition condition) {
    /** How a dependency must end. */
    public enum Condition {
        /** Only when the dependency SUCCEEDED; any other end means the dependent job never starts. */
        AFTER_SUCCESS,
        /** Whenever the dependency ended, however it ended (cleanup steps). */
        AFTER_ANY
    }

    /**
     * Checks that both components are given.
     *
     * @param job the job depended on
     * @param condition how it must end
     * @throws NullPointerException when a component is null
     */
    public JobDependency {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(condition, "condition");
    }

    /**
     * A dependency on a job succeeding.
     *
     * @param job the job depended on
     * @return the dependency, {@link Condition#AFTER_SUCCESS}
     */
    public static JobDependency afterSuccess(JobRef job) {
        return new JobDependency(job, Condition.AFTER_SUCCESS);
    }

    /**
     * A dependency on a job ending, however it ends.
     *
     * @param job the job depended on
     * @return the dependency, {@link Condition#AFTER_ANY}
     */
    public static JobDependency afterAny(JobRef job) {
        return new JobDependency(job, Condition.AFTER_ANY);
    }

    /**
     * Whether a dependency that ended in {@code state} lets the dependent job start.
     *
     * @param state the dependency's state
     * @return true for SUCCEEDED, or for any terminal state with {@link Condition#AFTER_ANY}; false for a state the
     *     job may still leave
     */
    public boolean satisfiedBy(JobState state) {
        return switch (condition) {
            case AFTER_SUCCESS -> state == JobState.SUCCEEDED;
            case AFTER_ANY -> state.isTerminal();
        };
    }
}
