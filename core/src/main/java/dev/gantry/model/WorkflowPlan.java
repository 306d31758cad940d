package dev.gantry.model;

import dev.gantry.api.Plan;
import java.util.List;
import java.util.Objects;

/**
 * Every job of a workflow planned by the advisor, in the order the steps may start (dependencies first): each carries
 * its own size, region, capacity, price and reasons, as a single workload's plan does.
 *
 * @param workflow the workflow planned
 * @param steps every job's plan, dependencies first
 */
public record WorkflowPlan(WorkflowDefinition workflow, List<PlannedStep> steps) {

    /**
     * One instance of a step (the step itself, or one combination of its matrix) and its plan.
     *
     * @param step the step
     * @param instance the instance of it this job runs
     * @param plan the instance's plan
     */
    public record PlannedStep(StepDefinition step, StepInstance instance, Plan plan) {
        /**
         * Checks that every component is given.
         *
         * @param step the step
         * @param instance the instance
         * @param plan the plan
         * @throws NullPointerException when a component is null
         */
        public PlannedStep {
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(plan, "plan");
        }
    }

    /**
     * Checks that both components are given and copies the steps.
     *
     * @param workflow the workflow
     * @param steps the planned jobs, copied
     * @throws NullPointerException when a component is null
     */
    public WorkflowPlan {
        Objects.requireNonNull(workflow, "workflow");
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
    }

    /**
     * The price per hour of every job running at once: an upper bound of the workflow's rate, since dependent steps
     * run one after another.
     *
     * @return the sum of every job's total price per hour, in USD
     */
    public double pricePerHourAllAtOnce() {
        return steps.stream().mapToDouble(step -> step.plan().pricePerHour().total()).sum();
    }
}
