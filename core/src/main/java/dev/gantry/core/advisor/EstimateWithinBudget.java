package dev.gantry.core.advisor;

import dev.gantry.api.Budget;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.model.Money;
import dev.gantry.model.WorkflowPlan;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Refuses at plan time what would spend more than {@code budget.maxTotal} by its own estimate: a workload whose plan
 * costs more to completion (its price per hour times the hours its {@code estimate} comes to on the chosen size), or
 * a workflow whose jobs' estimates add up to more. Only an estimate counts: a step's {@code timeout} is a bound, not
 * what the step is expected to take, and a workload without an estimate has no cost to completion to compare. With
 * {@code optimize: cost} the advisor's plan is the cheapest to completion, so a refusal means no size fits.
 */
public final class EstimateWithinBudget {
    private EstimateWithinBudget() {
    }

    /**
     * Checks one workload's plan against its own {@code budget.maxTotal}.
     *
     * @param plan the advisor's plan
     * @return the plan, when its estimate (if any) is within the budget
     * @throws GantryException NO_FEASIBLE_VM naming {@code budget.maxTotal}, its value and the estimate
     */
    public static Plan check(Plan plan) {
        OptionalDouble budget = maxTotal(plan.workload().budget());
        if (budget.isEmpty() || plan.estimatedCost().isEmpty()
                || plan.estimatedCost().getAsDouble() <= budget.getAsDouble()) {
            return plan;
        }
        double max = budget.getAsDouble();
        double cost = plan.estimatedCost().getAsDouble();
        String message = "budget.maxTotal: the plan's estimated cost $" + Money.format(cost) + " ("
                + Money.format(plan.estimatedHours().orElse(0)) + " h x " + Money.perHour(plan.pricePerHour().total())
                + " for " + plan.nodes() + " x " + plan.vmSize().name() + " in " + plan.region()
                + (plan.spot() ? ", spot" : "") + ") exceeds the budget of $" + Money.format(max)
                + "; allowed: an estimate of at most $" + Money.format(max) + ". Raise budget.maxTotal to at least $"
                + Money.format(cost) + ", or lower estimate.hours if the work is shorter";
        throw refused("workload '" + plan.workload().name() + "': " + message, message);
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
