package dev.gantry.model;

import dev.gantry.api.SpotPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the caller (usually the command line) overrides for one plan, above the workload and the configuration.
 *
 * @param regions regions to choose from; empty means no override
 * @param spot the spot policy to use instead of the workload's
 */
public record PlanOverrides(List<String> regions, Optional<SpotPolicy> spot) {
    /**
     * Copies the regions.
     *
     * @param regions the regions, copied; empty for no override
     * @param spot the spot policy, or empty for no override
     * @throws NullPointerException when a component is null
     */
    public PlanOverrides {
        regions = List.copyOf(Objects.requireNonNull(regions, "regions"));
        Objects.requireNonNull(spot, "spot");
    }

    /** {@return overrides of nothing: the workload and the configuration decide} */
    public static PlanOverrides none() {
        return new PlanOverrides(List.of(), Optional.empty());
    }
}
