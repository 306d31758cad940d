package dev.gantry.core.advisor;

import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The availability zones a plan asks per region and where each region's came from: the workload's {@code zones} for
 * every region it names (the workload wins per region), the configuration's {@code defaults.zones} for the others.
 *
 * @param byRegion the zones asked, by region name, in order: the workload's regions first
 * @param fromConfiguration the regions whose zones are the configuration's
 */
record AskedZones(Map<String, List<String>> byRegion, List<String> fromConfiguration) {
    static final String CONFIGURATION = "the configuration's defaults.zones";
    static final String WORKLOAD = "the workload";

    AskedZones {
        byRegion = Collections.unmodifiableMap(new LinkedHashMap<>(byRegion));
        fromConfiguration = List.copyOf(fromConfiguration);
    }

    /** The workload's zones, and the configuration's in the regions the workload asks none in. */
    static AskedZones of(Workload workload, Map<String, List<String>> configured) {
        Map<String, List<String>> zones = new LinkedHashMap<>(workload.zones());
        List<String> fromConfiguration = new ArrayList<>();
        configured.forEach((region, names) -> {
            if (!zones.containsKey(region)) {
                zones.put(region, names);
                fromConfiguration.add(region);
            }
        });
        return new AskedZones(zones, fromConfiguration);
    }

    /** Whether zones are asked in any region. */
    boolean any() {
        return !byRegion.isEmpty();
    }

    /** Who asked the region's zones, for the reasons: {@value #WORKLOAD} or {@value #CONFIGURATION}. */
    String source(String region) {
        return fromConfiguration.contains(region) ? CONFIGURATION : WORKLOAD;
    }

    /**
     * The workload as planned: with the configuration's zones for the regions it may be planned in (all, when it
     * names no regions; else those of its {@code regions}), so that whoever places the plan's VMs reads every zone
     * asked in {@code plan.workload().zones()}, as it reads the workload's own. A region outside the workload's
     * {@code regions} (one given on the command line) keeps its zones in the plan's {@code zones} only: a workload
     * may ask zones only in the regions it names.
     */
    Workload appliedTo(Workload workload) {
        if (fromConfiguration.isEmpty()) {
            return workload;
        }
        Workload.Builder planned = workload.toBuilder();
        boolean changed = false;
        for (String region : fromConfiguration) {
            if (workload.regions().isEmpty() || workload.regions().contains(region)) {
                planned.zones(region, byRegion.get(region));
                changed = true;
            }
        }
        return changed ? planned.build() : workload;
    }

    /** {@code eastus: zones 1, 2 from the workload; westus2: zone 3 from the configuration's defaults.zones}. */
    String describe() {
        List<String> parts = new ArrayList<>();
        byRegion.forEach((region, names) -> parts.add(region + ": " + Explanations.zoneList(names) + " from "
                + source(region)));
        return String.join("; ", parts);
    }
}
