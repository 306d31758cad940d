package dev.gantry.backend.cyclecloud.internal.gridengine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the probe ({@code probe.sh}) found on a Grid Engine cluster: its cluster queues, parallel environments,
 * complexes and execution hosts, and whether the work directory is writable. A pure parse.
 *
 * @param queuesError what {@code qconf -sql} said when it failed (no qmaster, not a Grid Engine login node)
 */
public record GridEngineFacts(List<String> queues, Optional<String> queuesError, Set<String> parallelEnvironments,
                              Set<String> complexes, List<String> hosts, boolean workDirWritable) {
    public GridEngineFacts {
        queues = List.copyOf(queues);
        parallelEnvironments = Set.copyOf(parallelEnvironments);
        complexes = Set.copyOf(complexes);
        hosts = List.copyOf(hosts);
    }

    public static GridEngineFacts parse(String output) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        Optional<String> queuesError = Optional.empty();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("=queues-status ")) {
                List<String> listed = sections.getOrDefault("queues", List.of());
                if (!line.substring("=queues-status ".length()).strip().equals("0")) {
                    queuesError = Optional.of(String.join(" ", listed).strip());
                }
                current = null;
            } else if (line.startsWith("=")) {
                current = new ArrayList<>();
                sections.put(line.substring(1).strip(), current);
            } else if (current != null && !line.isBlank()) {
                current.add(line.strip());
            }
        }
        return new GridEngineFacts(queuesError.isPresent() ? List.of() : sections.getOrDefault("queues", List.of()),
                queuesError, Set.copyOf(sections.getOrDefault("pes", List.of())),
                Set.copyOf(sections.getOrDefault("complexes", List.of())), sections.getOrDefault("hosts", List.of()),
                sections.getOrDefault("workdir", List.of()).contains("writable"));
    }
}
