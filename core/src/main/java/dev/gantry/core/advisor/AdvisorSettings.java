package dev.gantry.core.advisor;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The configuration's defaults for the advisor.
 *
 * @param defaultRegions regions used when a workload names none (empty: every region in the catalog)
 * @param defaultSpot spot policy for workloads that leave {@code spot} at its default ({@code never})
 * @param adviceScheduler the open-source scheduler wanted, which makes the orchestrator advice CycleCloud
 * @param defaultZones availability zones asked per region ({@code defaults.zones}) where a workload asks none: a
 *     workload's own zones win for each region it names (empty: any zone)
 */
public record AdvisorSettings(List<String> defaultRegions, Optional<SpotPolicy> defaultSpot,
                              Optional<Scheduler> adviceScheduler, Map<String, List<String>> defaultZones) {
    private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");

    public AdvisorSettings {
        defaultRegions = List.copyOf(Objects.requireNonNull(defaultRegions, "defaultRegions"));
        Objects.requireNonNull(defaultSpot, "defaultSpot");
        Objects.requireNonNull(adviceScheduler, "adviceScheduler");
        Map<String, List<String>> zones = new LinkedHashMap<>();
        Objects.requireNonNull(defaultZones, "defaultZones").forEach((region, names) ->
                zones.put(region, names == null ? null : Collections.unmodifiableList(new ArrayList<>(names))));
        defaultZones = Collections.unmodifiableMap(zones);
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < defaultRegions.size(); i++) {
            String region = defaultRegions.get(i);
            if (!REGION.matcher(region).matches()) {
                problems.add(Problem.of("defaults.regions[" + i + "]",
                        "must be an Azure region name such as eastus or westus2, got '" + region + "'"));
            }
        }
        problems.addAll(Workload.zoneProblems("defaults.zones", defaultZones, List.of()));
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** Without {@code defaults.zones}: any zone where a workload asks none. */
    public AdvisorSettings(List<String> defaultRegions, Optional<SpotPolicy> defaultSpot,
                           Optional<Scheduler> adviceScheduler) {
        this(defaultRegions, defaultSpot, adviceScheduler, Map.of());
    }

    /** No default regions, no default spot policy, no scheduler preference. */
    public static AdvisorSettings defaults() {
        return new AdvisorSettings(List.of(), Optional.empty(), Optional.empty());
    }
}
