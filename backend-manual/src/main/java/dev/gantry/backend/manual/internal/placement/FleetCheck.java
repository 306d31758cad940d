package dev.gantry.backend.manual.internal.placement;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What stops a plan from running on the fleet at all, jobs running there aside. */
public final class FleetCheck {
    private final Fleet fleet;

    public FleetCheck(Fleet fleet) {
        this.fleet = fleet;
    }

    /** Contacts each host at most once (its facts are cached), and not at all once they are known. */
    public List<Problem> problems(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        if (fleet.sharesCapacity()) {
            // This machine: what it has, in the words of one machine.
            problems.addAll(PlanCheck.problems(plan, fleet.first().host().facts()));
            problems.addAll(fleet.first().containers().problems(plan));
            return problems;
        }
        Placement.Request request = FleetPlacement.request(plan);
        if (request.nodes() > fleet.size()) {
            problems.add(Problem.of("resources.nodes", "the plan asks for " + request.nodes() + " nodes but the "
                    + "inventory has " + fleet.size() + " host(s); add hosts or lower nodes"));
        }
        problems.addAll(fleet.first().containers().problems(plan));
        if (problems.isEmpty()) {
            List<Placement.HostLoad> empty = new ArrayList<>();
            for (FleetHost host : fleet.hosts()) {
                empty.add(FleetPlacement.capacity(host, Set.of(), 0, 0));
            }
            try {
                Placement.choose(request, empty);
            } catch (GantryException e) {
                if (e.code() == ErrorCode.BACKEND_UNAVAILABLE) {
                    throw e; // hosts that cannot be reached say nothing about whether the plan fits
                }
                problems.add(Problem.of("resources", "no host of the inventory is large enough even when idle: "
                        + e.getMessage()));
            }
        }
        return problems;
    }
}
