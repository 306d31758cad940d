package dev.gantry.backend.aks.internal.pools;

import dev.gantry.api.Plan;
import java.util.Optional;

/**
 * Makes sure a plan has a node pool before its job is submitted. Without {@code backends.aks.azure.*} there is none
 * to make: jobs go to the existing pools that the instance type (and {@code nodePools}) select.
 */
@FunctionalInterface
public interface PoolKeeper {
    /** Existing node pools only. */
    PoolKeeper NONE = plan -> Optional.empty();

    /** The pool the plan's job goes to; empty when the job is placed by its instance type (and nodePools) alone. */
    Optional<TargetPool> ensure(Plan plan);
}
