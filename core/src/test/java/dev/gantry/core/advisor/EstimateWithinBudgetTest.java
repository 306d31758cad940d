package dev.gantry.core.advisor;

import static dev.gantry.core.advisor.AdvisorRulesTest.failure;
import static dev.gantry.core.advisor.AdvisorRulesTest.plan;
import static dev.gantry.core.advisor.AdvisorRulesTest.resources;
import static dev.gantry.core.advisor.AdvisorRulesTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Budget;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.Workload;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EstimateWithinBudgetTest {
    /** 8 GPUs over InfiniBand for 100 h on an A100: the MI300X size wins at 60 × 100 × 312/1307 = 1432.29 USD. */
    private static Workload.Builder training() {
        return workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .resources(resources().gpus(8).interconnect(Interconnect.INFINIBAND).build())
                .estimate(new RuntimeEstimate(100, "A100-80GB"));
    }

    @Test
    void aWorkloadWhoseCheapestEstimateExceedsItsTotalBudgetHasNoSizeAndIsToldTheBudgetThatFits() {
        GantryException e = failure(TestCatalogs.world(), training().budget(Budget.total(1400)).build());

        assertEquals(ErrorCode.NO_FEASIBLE_VM, e.code());
        assertEquals("no VM size fits workload 'w' (GPU training): budget to completion (budget.maxTotal = $1400 for "
                + "the estimated hours on each size) removed the last 4 candidate(s) of 14; removed in order: family "
                + "8, retired 1, interconnect 1, budget to completion 4; retired series are never recommended (e.g. "
                + "Standard_ND40rs_v2, NDv2). Nearest alternatives: raise the budget to $1432.2877 to completion "
                + "(23.8715 h estimated): Standard_ND96isr_MI300X_v5 in eastus (8 × 192 GiB, amd, RDMA) at 60 USD/h "
                + "on-demand", e.getMessage());
    }

    /**
     * One GPU for 10 h on an A100: the NC A100 size finishes first (10 h x 3.673 = $36.73), the T4 size is cheaper to
     * completion (10 x 312 / 65 = 48 h x 0.526 = $25.25).
     */
    @Test
    void optimizeTimeGetsTheFastestSizeWhoseCostToCompletionFitsTheTotalBudgetNotARefusal() {
        Workload.Builder oneGpu = workload(Phase.TRAINING, ModelClass.GENERATIVE).optimize(Optimize.TIME)
                .resources(resources().gpus(1).build()).estimate(new RuntimeEstimate(10, "A100-80GB"));
        Plan fastest = plan(oneGpu.build());
        assertEquals("Standard_NC24ads_A100_v4", fastest.vmSize().name());
        assertEquals(36.73, fastest.estimatedCost().getAsDouble(), 1e-9);

        Plan within = plan(oneGpu.budget(Budget.total(30)).build());

        assertEquals("Standard_NC4as_T4_v3", within.vmSize().name());
        assertEquals(25.2480, within.estimatedCost().getAsDouble(), 1e-3);
        assertTrue(within.reasons().stream().anyMatch(r -> r.rule().equals("R7") && r.text().endsWith(
                "; budget.maxTotal = $30 excludes candidates whose estimated cost to completion is higher, and bounds "
                + "the run's spend")), within.reasons().toString());
        assertTrue(within.alternatives().stream().noneMatch(a -> a.vmSize().equals(fastest.vmSize().name())),
                within.alternatives().toString());
    }

    @Test
    void aWorkloadWithinItsTotalBudgetOrWithoutAnEstimateIsPlannedAsBefore() {
        Plan within = plan(training().budget(Budget.total(1500)).build());
        assertEquals("Standard_ND96isr_MI300X_v5", within.vmSize().name());
        // Without an estimate there is no cost to completion to compare: the run engine holds the run to it.
        Plan unknown = plan(training().estimate(null).budget(Budget.total(1)).build());
        assertTrue(unknown.estimatedCost().isEmpty());
    }

    @Test
    void aWorkflowWhoseJobsEstimatesAddUpToMoreThanItsBudgetIsRefusedJobsWithoutOneAddNothing() {
        WorkflowPlan plan = workflow(Budget.total(50), 30, 25, -1);

        GantryException e = assertThrows(GantryException.class, () -> EstimateWithinBudget.check(plan));
        assertEquals(ErrorCode.NO_FEASIBLE_VM, e.code());
        assertEquals("workflow 'flow': budget.maxTotal: the estimates of 2 of the workflow's 3 jobs add up to $55, "
                + "more than the budget of $50 (s0 $30, s1 $25); allowed: estimates adding up to at most $50. Raise "
                + "budget.maxTotal to at least $55, or lower the steps' estimate.hours if the work is shorter",
                e.getMessage());
        WorkflowPlan within = workflow(Budget.total(55), 30, 25, -1);
        assertSame(within, EstimateWithinBudget.check(within));
        WorkflowPlan noBudget = workflow(null, 30, 25, -1);
        assertSame(noBudget, EstimateWithinBudget.check(noBudget));
    }

    /** One step per cost: a plan with that estimated cost, or none for a negative one. */
    private static WorkflowPlan workflow(Budget budget, double... costs) {
        List<StepDefinition> steps = new ArrayList<>();
        List<WorkflowPlan.PlannedStep> planned = new ArrayList<>();
        Plan shape = plan(workload(Phase.TRAINING, ModelClass.SMALL).build());
        for (int i = 0; i < costs.length; i++) {
            Workload w = Workload.builder("s" + i).phase(Phase.TRAINING).model(ModelClass.SMALL).command("x").build();
            StepDefinition step = StepDefinition.of("s" + i, w, List.of());
            steps.add(step);
            Plan.Builder p = Plan.builder(w, shape.vmSize()).region("eastus").pricePerHour(shape.pricePerHour());
            if (costs[i] >= 0) {
                p.estimatedHours(1).estimatedCost(costs[i]);
            }
            planned.add(new WorkflowPlan.PlannedStep(step, new StepInstance("s" + i, Map.of(), w), p.build()));
        }
        return new WorkflowPlan(new WorkflowDefinition("flow", Map.of(), steps, 0, Optional.ofNullable(budget)),
                planned);
    }
}
