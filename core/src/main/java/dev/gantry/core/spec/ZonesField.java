package dev.gantry.core.spec;

import dev.gantry.api.Workload;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.FieldPath;
import dev.gantry.core.spec.yaml.YamlNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A field of availability zones asked per region, {@code {eastus: [1, 2]}}: the workload's {@code spec.zones} and
 * the configuration's {@code defaults.zones}, read by one reader so that both say the same about the same mistake.
 * What the zones may be is {@link Workload#zoneProblems}'s rule.
 */
public final class ZonesField {
    private ZonesField() {
    }

    /**
     * Reads the field as written, a zone written as a number taken as its text; each region's key location is
     * remembered as {@code PATH.REGION}, so that problems found later (by {@link Workload#zoneProblems}) are located.
     * A field that is not a mapping, or a region whose value is not a list, is reported here and left out.
     *
     * @param in the binder collecting problems
     * @param map the mapping that holds the field
     * @param path the mapping's path ({@code ""} for a spec, {@code defaults} for the configuration)
     * @param key the field's key, {@code zones}
     * @return the zones per region, in the order written; empty when the field is absent
     */
    public static Map<String, List<String>> read(Binder in, YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode> node = in.field(map, path, key);
        if (node.isEmpty()) {
            return Map.of();
        }
        String at = FieldPath.join(path, key);
        if (!(node.get() instanceof YamlNode.Mapping byRegion)) {
            in.report(at, in.keyLocation(map, key), "must be a mapping of region names to lists of zones,"
                    + " e.g. {eastus: [1, 2]}, got " + node.get().describe());
            return Map.of();
        }
        Map<String, List<String>> zones = new LinkedHashMap<>();
        for (YamlNode.Entry entry : byRegion.entries()) {
            in.remember(FieldPath.join(at, entry.key()), entry.keyLocation());
            in.list(byRegion, at, entry.key(), "zones 1, 2 or 3", false)
                    .ifPresent(list -> zones.put(entry.key(), list));
        }
        return zones;
    }
}
