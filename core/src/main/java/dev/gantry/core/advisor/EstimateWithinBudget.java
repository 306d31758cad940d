package dev.gantry.core.advisor;

import dev.gantry.api.Budget;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.model.Money;
import dev.gantry.model.WorkflowPlan;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Refuses at plan time a workflow whose jobs' estimates add up to more than its {@code budget.maxTotal}. A workload's
 * own {@code maxTotal} is a constraint of the advisor's search ({@code Constraint.TotalBudget}): a size whose estimated
 * cost to completion exceeds it is never chosen, so {@code optimize: time} gets the fastest size that fits. A
 * workflow's budget covers jobs planned one by one, so only their sum can be judged, here. Only an estimate counts: a
 * step's {@code timeout} is a bound, not what the step is expected to take, and a job without an estimate has no cost
 * to completion to add.
 */
public final class EstimateWithinBudget {
    private EstimateWithinBudget() {
    }

    /**
     * Checks a workflow's plan against the workflow's {@code budget.maxTotal}: every job's estimate (each matrix
     * instance counts once) added up. Jobs without an estimate add nothing, which the message says.
     *
     * @param plan the workflow's plan
     * @return the plan, when its jobs' estimates are within the budget
     * @throws GantryException NO_FEASIBLE_VM naming {@code budget.maxTotal}, its value and the estimates' sum
     */
    public static WorkflowPlan check(WorkflowPlan plan) {
        OptionalDouble budget = maxTotal(plan.workflow().budget());
        if (budget.isEmpty()) {
            return plan;
        }
        double max = budget.getAsDouble();
        List<WorkflowPlan.PlannedStep> estimated = plan.steps().stream()
                .filter(step -> step.plan().estimatedCost().isPresent()).toList();
        double sum = estimated.stream().mapToDouble(step -> step.plan().estimatedCost().getAsDouble()).sum();
        if (sum <= max) {
            return plan;
        }
        String message = "budget.maxTotal: the estimates of " + estimated.size() + " of the workflow's "
                + plan.steps().size() + " jobs add up to $" + Money.format(sum) + ", more than the budget of $"
                + Money.format(max) + " (" + String.join(", ", estimated.stream().limit(5).map(step ->
                step.instance().name() + " $" + Money.format(step.plan().estimatedCost().getAsDouble())).toList())
                + (estimated.size() > 5 ? ", ..." : "") + "); allowed: estimates adding up to at most $"
                + Money.format(max) + ". Raise budget.maxTotal to at least $" + Money.format(sum)
                + ", or lower the steps' estimate.hours if the work is shorter";
        throw refused("workflow '" + plan.workflow().name() + "': " + message, message);
    }

    private static OptionalDouble maxTotal(Optional<Budget> budget) {
        return budget.map(Budget::maxTotal).orElse(OptionalDouble.empty());
    }

    private static GantryException refused(String message, String problem) {
        return new GantryException(ErrorCode.NO_FEASIBLE_VM, message, List.of(Problem.of("budget.maxTotal",
                problem.substring("budget.maxTotal: ".length()))), null);
    }
}
