package dev.gantry.model;

import dev.gantry.api.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of a workflow: a workload, the steps it waits for, and what to do when it fails. {@code instances} is the
 * matrix expansion: one instance named like the step when there is no matrix, else one per combination, named
 * {@code STEP-v1-v2}. A step counts as done when all its instances are. {@code outputs} are the values the step
 * publishes for later steps (see {@code dev.gantry.core.runs.StepOutputs}); a step with a matrix publishes none.
 *
 * @param name the step's name, unique in its workflow; also its workload's name
 * @param workload what the step runs
 * @param dependsOn the names of the steps that must succeed first
 * @param retries how often a failed job is tried again, and after how long
 * @param onFailure what a failure that used up its retries does to the rest of the workflow
 * @param timeout the longest one attempt may run; empty for no limit
 * @param instances the matrix expansion, at least one
 * @param outputs the names of the values the step publishes
 */
public record StepDefinition(String name, Workload workload, List<String> dependsOn, RetryPolicy retries,
        FailurePolicy onFailure, Optional<Duration> timeout, List<StepInstance> instances, List<String> outputs) {

    /**
     * Checks the step and copies its lists.
     *
     * @param name the name
     * @param workload the workload
     * @param dependsOn the dependencies, copied
     * @param retries the retry policy
     * @param onFailure the failure policy
     * @param timeout the timeout, positive, or empty
     * @param instances the instances, copied; not empty
     * @param outputs the output names, copied
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when there are no instances or the timeout is not positive
     */
    public StepDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(workload, "workload");
        dependsOn = List.copyOf(Objects.requireNonNull(dependsOn, "dependsOn"));
        Objects.requireNonNull(retries, "retries");
        Objects.requireNonNull(onFailure, "onFailure");
        Objects.requireNonNull(timeout, "timeout");
        instances = List.copyOf(Objects.requireNonNull(instances, "instances"));
        outputs = List.copyOf(Objects.requireNonNull(outputs, "outputs"));
        if (instances.isEmpty()) {
            throw new IllegalArgumentException("step " + name + " has no instances");
        }
        if (timeout.isPresent() && (timeout.get().isNegative() || timeout.get().isZero())) {
            throw new IllegalArgumentException("step " + name + ": timeout must be positive, got " + timeout.get());
        }
    }

    /**
     * A step that publishes no outputs.
     *
     * @param name its name
     * @param workload what it runs
     * @param dependsOn what it waits for
     * @param retries its retry policy
     * @param onFailure its failure policy
     * @param timeout its time limit per attempt, if any
     * @param instances its matrix instances
     */
    public StepDefinition(String name, Workload workload, List<String> dependsOn, RetryPolicy retries,
            FailurePolicy onFailure, Optional<Duration> timeout, List<StepInstance> instances) {
        this(name, workload, dependsOn, retries, onFailure, timeout, instances, List.of());
    }

    /**
     * A step without matrix, retries or timeout that stops the workflow on failure.
     *
     * @param name the step's name
     * @param workload what it runs
     * @param dependsOn the steps it waits for; empty for none
     * @return the step, with one instance named like it
     */
    public static StepDefinition of(String name, Workload workload, List<String> dependsOn) {
        return new StepDefinition(name, workload, dependsOn, RetryPolicy.NONE, FailurePolicy.STOP, Optional.empty(),
                List.of(new StepInstance(name, java.util.Map.of(), workload)));
    }
}
