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
 */
public record StepDefinition(String name, Workload workload, List<String> dependsOn, RetryPolicy retries,
        FailurePolicy onFailure, Optional<Duration> timeout, List<StepInstance> instances, List<String> outputs) {

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

    /** A step that publishes no outputs. */
    public StepDefinition(String name, Workload workload, List<String> dependsOn, RetryPolicy retries,
            FailurePolicy onFailure, Optional<Duration> timeout, List<StepInstance> instances) {
        this(name, workload, dependsOn, retries, onFailure, timeout, instances, List.of());
    }

    /** A step without matrix, retries or timeout that stops the workflow on failure. */
    public static StepDefinition of(String name, Workload workload, List<String> dependsOn) {
        return new StepDefinition(name, workload, dependsOn, RetryPolicy.NONE, FailurePolicy.STOP, Optional.empty(),
                List.of(new StepInstance(name, java.util.Map.of(), workload)));
    }
}
