package dev.gantry.backend.cyclecloud.internal.gridengine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the probe ({@code probe.sh}) found on a Grid Engine cluster: its cluster queues, parallel environments (and
 * the rules of those the settings name), complexes and execution hosts, and whether the work directory is writable.
 * A pure parse.
 *
 * @param queuesError what {@code qconf -sql} said when it failed (no qmaster, not a Grid Engine login node)
 * @param rules the allocation rules of the parallel environments the probe was asked about, by name
 */
public record GridEngineFacts(List<String> queues, Optional<String> queuesError, Set<String> parallelEnvironments,
                              Map<String, ParallelEnvironmentRule> rules, Set<String> complexes, List<String> hosts,
                              boolean workDirWritable) {
    public GridEngineFacts {
        queues = List.copyOf(queues);
        parallelEnvironments = Set.copyOf(parallelEnvironments);
        rules = Map.copyOf(rules);
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
        Map<String, ParallelEnvironmentRule> rules = new HashMap<>();
        for (String line : sections.getOrDefault("pe-rules", List.of())) {
            String[] words = line.split("\\s+");
            if (words.length >= 2) {
                rules.put(words[0], new ParallelEnvironmentRule(words[0], words[1],
                        words.length > 2 && words[2].equalsIgnoreCase("TRUE")));
            }
        }
        return new GridEngineFacts(queuesError.isPresent() ? List.of() : sections.getOrDefault("queues", List.of()),
                queuesError, Set.copyOf(sections.getOrDefault("pes", List.of())), rules,
                Set.copyOf(sections.getOrDefault("complexes", List.of())), sections.getOrDefault("hosts", List.of()),
                sections.getOrDefault("workdir", List.of()).contains("writable"));
    }
}
