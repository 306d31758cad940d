package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.core.advisor.EstimateWithinBudget;
import dev.gantry.core.advisor.NodeBoots;
import dev.gantry.model.PlanOverrides;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.model.SpecDocument;
import dev.gantry.core.wiring.CoreServices;
import dev.gantry.images.ImageCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Core's decisions as the facade and its sub-facades ask for them: specs read, workloads and workflows planned, the
 * configuration and the catalog in force. The sub-facades ({@link Runs}, {@link Vms}) take this rather than the
 * {@link Gantry} facade, so nothing below the facade calls back up into it.
 */
final class Planner {
    private static final NodeBoots NODE_BOOTS = new NodeBoots(ImageCatalog.builtIn());

    /** What a subscription that cannot be read fails with: Azure refused, did not answer, or is not on the path. */
    private static final Set<ErrorCode> UNREADABLE = Set.of(ErrorCode.AUTH_FAILED, ErrorCode.REMOTE_ERROR,
            ErrorCode.USAGE);

    private final CoreServices services;
    /** The subscription the plans made without one keep to (the run engine's included), or none. */
    private volatile Optional<Within> within = Optional.empty();

    Planner(CoreServices services) {
        this.services = services;
    }

    /**
     * A subscription's capacity, read when a plan first needs it, and who hears that it could not be read.
     *
     * @param capacity the subscription's capacity; may throw AUTH_FAILED, REMOTE_ERROR or USAGE
     * @param notChecked told what was planned without it (a workload's or a workflow's name) and why
     */
    record Within(Supplier<SubscriptionCapacity> capacity, BiConsumer<String, String> notChecked) {
    }

    /** From now on, the plans made without a subscription of their own keep to this one. */
    void planWithin(Within subscription) {
        within = Optional.of(subscription);
    }

    GantryConfig config() {
        return services.config();
    }

    Catalog catalog() {
        return services.catalog().get();
    }

    Workload load(Path spec) {
        return services.specs().read(spec);
    }

    SpecDocument loadAny(Path spec) {
        return services.specs().readAny(spec);
    }

    List<Problem> validate(Path spec) {
        return services.specs().validate(spec);
    }

    /**
     * The advisor's plan, with what its nodes run at boot for the chosen image; within the subscription set by
     * {@link #planWithin} when there is one.
     */
    Plan plan(Workload workload, PlanOverrides overrides) {
        return withinSubscription(workload.name(), capacity -> plan(workload, overrides, capacity));
    }

    /** The same within what the subscription allows, when one is given. */
    Plan plan(Workload workload, PlanOverrides overrides, Optional<SubscriptionCapacity> subscription) {
        return NODE_BOOTS.withBoot(services.advisor().get().plan(workload, overrides, subscription));
    }

    /**
     * Every job of a workflow planned, dependencies first. A step that cannot be planned fails the whole plan, naming
     * the step: nothing of a workflow should start when one of its later steps can never run. A step is planned
     * once: its matrix instances differ only in their name and environment, which the advisor does not read, so each
     * instance takes the step's plan, boot program included, with its own workload (a 100,000-job matrix is one
     * plan, not 100,000).
     */
    WorkflowPlan plan(WorkflowDefinition workflow, PlanOverrides overrides) {
        return withinSubscription(workflow.name(), capacity -> plan(workflow, overrides, capacity));
    }

    /**
     * Plans within the subscription set by {@link #planWithin} when there is one. When Azure cannot be read (no
     * sign-in, no role, the Azure module missing), the plan is made without it, as before, and the listener hears
     * why; the plan's Q1 reason says that quota and zones were not checked.
     */
    private <T> T withinSubscription(String name, Function<Optional<SubscriptionCapacity>, T> planning) {
        Optional<Within> subscription = within;
        if (subscription.isEmpty()) {
            return planning.apply(Optional.empty());
        }
        try {
            return planning.apply(Optional.of(subscription.get().capacity().get()));
        } catch (GantryException e) {
            if (!UNREADABLE.contains(e.code())) {
                throw e;
            }
            subscription.get().notChecked().accept(name, e.getMessage().lines().findFirst().orElse(""));
            return planning.apply(Optional.empty());
        }
    }

    /** The same within what the subscription allows, when one is given: its regions read once for all steps. */
    WorkflowPlan plan(WorkflowDefinition workflow, PlanOverrides overrides,
                      Optional<SubscriptionCapacity> subscription) {
        List<WorkflowPlan.PlannedStep> planned = new ArrayList<>();
        for (StepDefinition step : workflow.topologicalOrder()) {
            StepInstance first = step.instances().get(0);
            Plan shape;
            try {
                shape = plan(first.workload(), overrides, subscription);
            } catch (GantryException e) {
                throw new GantryException(e.code(), "step '" + first.name() + "' of workflow '" + workflow.name()
                        + "'" + (step.instances().size() > 1 ? " (and the " + (step.instances().size() - 1)
                        + " other jobs of its matrix)" : "") + ": " + e.getMessage(), e.problems(), e);
            }
            for (StepInstance instance : step.instances()) {
                // The boot program too is the step's: its nodes run the step's jobs, whichever of them.
                planned.add(new WorkflowPlan.PlannedStep(step, instance, shape.withWorkload(instance.workload())));
            }
        }
        return EstimateWithinBudget.check(new WorkflowPlan(workflow, planned));
    }
}
