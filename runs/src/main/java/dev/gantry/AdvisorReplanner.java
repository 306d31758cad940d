package dev.gantry;

import dev.gantry.api.Plan;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.model.PlanOverrides;
import dev.gantry.runs.engine.RunEngine;
import java.util.List;
import java.util.Optional;

/**
 * The run engine's replanner: the advisor plans a moved attempt as it plans every job, so the attempt carries its
 * own size, price and reasons, and a region or capacity it cannot use is an error rather than a guess.
 */
final class AdvisorReplanner implements RunEngine.Replanner {
    private final Planner planner;

    AdvisorReplanner(Planner planner) {
        this.planner = planner;
    }

    /** In the advisor's order of precedence (its rule R7): the workload's, the configuration's, the catalog's. */
    @Override
    public List<String> regions(Workload workload) {
        if (!workload.regions().isEmpty()) {
            return workload.regions();
        }
        List<String> configured = planner.config().defaultRegions();
        return configured.isEmpty() ? List.copyOf(planner.catalog().regions()) : configured;
    }

    @Override
    public Plan plan(Workload workload, boolean onDemand, List<String> regions) {
        return planner.plan(workload, new PlanOverrides(regions,
                onDemand ? Optional.of(SpotPolicy.NEVER) : Optional.empty()));
    }
}
