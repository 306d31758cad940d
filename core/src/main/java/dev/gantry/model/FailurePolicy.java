package dev.gantry.model;

import java.util.Objects;
import java.util.Optional;

/**
 * What a workflow does when a step fails for good (after its retries). Written in a spec as {@code stop},
 * {@code continue} or {@code cleanup:NAME}.
 *
 * @param action what to do
 * @param cleanupStep the step to run after stopping, present exactly for {@link Action#CLEANUP}
 */
public record FailurePolicy(Action action, Optional<String> cleanupStep) {
    /** The default: a failure ends the workflow, since later steps usually need the failed step's output. */
    public static final FailurePolicy STOP = new FailurePolicy(Action.STOP, Optional.empty());
    /** Keep running the branches that do not depend on the failed step. */
    public static final FailurePolicy CONTINUE = new FailurePolicy(Action.CONTINUE, Optional.empty());

    /** What a failure does to the rest of the workflow. */
    public enum Action {
        /** Stop the workflow: no new steps start. */
        STOP,
        /** Skip the failed step's dependents but keep running independent branches. */
        CONTINUE,
        /** Stop the workflow, then run the named cleanup step (to release resources the failed step held). */
        CLEANUP
    }

    /**
     * Checks that a cleanup step is named exactly for {@link Action#CLEANUP}.
     *
     * @param action the action
     * @param cleanupStep the cleanup step, or empty
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when the cleanup step and the action disagree
     */
    public FailurePolicy {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(cleanupStep, "cleanupStep");
        if ((action == Action.CLEANUP) != cleanupStep.isPresent()) {
            throw new IllegalArgumentException("a cleanup step is named exactly when the action is CLEANUP");
        }
    }

    /**
     * Stop the workflow, then run a cleanup step.
     *
     * @param step the cleanup step's name
     * @return the policy, {@link Action#CLEANUP}
     */
    public static FailurePolicy cleanup(String step) {
        return new FailurePolicy(Action.CLEANUP, Optional.of(step));
    }

    /** As written in a spec: {@code stop}, {@code continue} or {@code cleanup:NAME}. */
    @Override
    public String toString() {
        return action == Action.CLEANUP ? "cleanup:" + cleanupStep.orElseThrow() : action.name().toLowerCase();
    }
}
