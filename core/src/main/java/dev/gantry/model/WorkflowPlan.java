package dev.gantry.model;

import dev.gantry.api.Plan;
import java.util.List;
import java.util.Objects;

/**
 * Every job of a workflow planned by the advisor, in the order the steps may start (dependencies first): each carries
 * its own size, region, capacity, price and reasons, as a single workload's plan does.
 */
public record WorkflowPlan(WorkflowDefinition workflow, List<PlannedStep> steps) {

    /** One instance of a step (the step itself, or one combination of its matrix) and its plan. */
    public record PlannedStep(StepDefinition step, StepInstance instance, Plan plan) {
        public PlannedStep {
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(plan, "plan");
        }
    }

    public WorkflowPlan {
        Objects.requireNonNull(workflow, "workflow");
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
    }

    /**
     * The price per hour of every job running at once: an upper bound of the workflow's rate, since dependent steps
     * run one after another.
     */
    public double pricePerHourAllAtOnce() {
        return steps.stream().mapToDouble(step -> step.plan().pricePerHour().total()).sum();
    }
}
