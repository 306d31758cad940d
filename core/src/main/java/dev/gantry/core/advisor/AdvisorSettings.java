package dev.gantry.core.advisor;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SpotPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The configuration's defaults for the advisor.
 *
 * @param defaultRegions regions used when a workload names none (empty: every region in the catalog)
 * @param defaultSpot spot policy for workloads that leave {@code spot} at its default ({@code never})
 * @param adviceScheduler the open-source scheduler wanted, which makes the orchestrator advice CycleCloud
 */
public record AdvisorSettings(List<String> defaultRegions, Optional<SpotPolicy> defaultSpot,
                              Optional<Scheduler> adviceScheduler) {
    private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");

    public AdvisorSettings {
        defaultRegions = List.copyOf(Objects.requireNonNull(defaultRegions, "defaultRegions"));
        Objects.requireNonNull(defaultSpot, "defaultSpot");
        Objects.requireNonNull(adviceScheduler, "adviceScheduler");
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < defaultRegions.size(); i++) {
            String region = defaultRegions.get(i);
            if (!REGION.matcher(region).matches()) {
                problems.add(Problem.of("defaults.regions[" + i + "]",
                        "must be an Azure region name such as eastus or westus2, got '" + region + "'"));
            }
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** No default regions, no default spot policy, no scheduler preference. */
    public static AdvisorSettings defaults() {
        return new AdvisorSettings(List.of(), Optional.empty(), Optional.empty());
    }
}
