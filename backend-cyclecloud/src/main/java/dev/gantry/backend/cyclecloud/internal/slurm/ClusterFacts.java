package dev.gantry.backend.cyclecloud.internal.slurm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the cluster probe ({@code probe.sh}) found: the partitions with their nodes, CPUs, memory and GRES, whether
 * srun has Pyxis's container options, whether the work directory is writable, and the scheduler's configuration
 * lines Gantry looks at. Parsing is a pure function with golden tests.
 *
 * @param partitions by name, in sinfo's order
 * @param sinfoError sinfo's message when it failed
 * @param pyxis whether srun knows {@code --container-image}
 * @param workDirWritable whether the work directory exists, or could be made, and is writable
 * @param config {@code scontrol show config} lines by name ({@code GresTypes}, {@code MinJobAge}, ...)
 */
public record ClusterFacts(Map<String, Partition> partitions, Optional<String> sinfoError, boolean pyxis,
                           boolean workDirWritable, Map<String, String> config) {
    /**
     * One partition as sinfo summarizes it (several lines for one partition, of nodes that differ, are merged: the
     * largest CPUs and memory and every GRES).
     *
     * @param name its name
     * @param up whether its availability is {@code up}
     * @param nodes how many nodes it has, powered down (autoscaling) ones included
     * @param cpus CPUs of its largest node
     * @param memoryMib memory of its largest node
     * @param gpus GPUs per node its GRES declares (0: none)
     * @param nodeList its nodes, as Slurm abbreviates them
     */
    public record Partition(String name, boolean up, int nodes, int cpus, long memoryMib, int gpus,
                            String nodeList) {
    }

    public ClusterFacts {
        partitions = Collections.unmodifiableMap(new LinkedHashMap<>(partitions)); // Map.copyOf loses sinfo's order
        config = Map.copyOf(config);
    }

    /**
     * One more than the highest task index a job array may have ({@code MaxArraySize}; 0, arrays refused, when the
     * probe did not see it).
     */
    public int maxArraySize() {
        return number(config.getOrDefault("MaxArraySize", "")).orElse(0);
    }

    /** The partition jobs go to when they name none: sinfo marks it with {@code *}. */
    public Optional<Partition> defaultPartition() {
        return partitions.values().stream().filter(p -> p.name().endsWith("*")).findFirst();
    }

    /** A partition by name, the default one's marker ignored. */
    public Optional<Partition> partition(String name) {
        return Optional.ofNullable(partitions.get(name)).or(() -> Optional.ofNullable(partitions.get(name + "*")));
    }

    public static ClusterFacts parse(String output) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        String current = null;
        for (String line : output.split("\n")) {
            if (line.startsWith("=")) {
                String header = line.substring(1).strip();
                current = header.split(" ")[0];
                sections.computeIfAbsent(current, k -> new ArrayList<>());
                if (header.contains(" ")) {
                    sections.get(current).add(header.substring(header.indexOf(' ') + 1));
                }
            } else if (current != null) {
                sections.get(current).add(line);
            }
        }
        if (!sections.containsKey("end")) {
            throw new IllegalArgumentException("the cluster probe's answer is cut short (no =end line): " + output);
        }
        boolean sinfoOk = sections.getOrDefault("sinfo-status", List.of("1")).get(0).strip().equals("0");
        Map<String, Partition> partitions = new LinkedHashMap<>();
        List<String> sinfo = sections.getOrDefault("sinfo", List.of());
        if (sinfoOk) {
            for (String line : sinfo) {
                sinfoLine(line).ifPresent(p -> partitions.merge(p.name(), p, ClusterFacts::merge));
            }
        }
        Map<String, String> config = new LinkedHashMap<>();
        for (String line : sections.getOrDefault("config", List.of())) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                config.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return new ClusterFacts(partitions, sinfoOk ? Optional.empty() : Optional.of(String.join(" ", sinfo).strip()),
                first(sections, "pyxis").equals("yes"), first(sections, "workdir").equals("writable"), config);
    }

    private static String first(Map<String, List<String>> sections, String name) {
        List<String> lines = sections.getOrDefault(name, List.of());
        return lines.isEmpty() ? "" : lines.get(0).strip();
    }

    /** {@code %P|%a|%D|%c|%m|%G|%N}: partition (the default one marked {@code *}), availability, nodes, CPUs, memory, GRES, node list. */
    static Optional<Partition> sinfoLine(String line) {
        String[] f = line.strip().split("\\|", -1);
        if (f.length < 7 || f[0].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Partition(f[0], f[1].equals("up"), number(f[2]).orElse(0), number(f[3]).orElse(0),
                number(f[4].replace("+", "")).orElse(0), gpus(f[5]), f[6]));
    }

    /** GPUs per node in a GRES string such as {@code gpu:4}, {@code gpu:a100:8(S:0-1)} or {@code (null)}. */
    static int gpus(String gres) {
        int total = 0;
        for (String item : gres.split(",")) {
            String[] parts = item.replaceAll("\\(.*\\)", "").split(":");
            if (parts.length >= 2 && parts[0].equals("gpu")) {
                total += number(parts[parts.length - 1]).orElse(0);
            }
        }
        return total;
    }

    private static OptionalInt number(String text) {
        try {
            return OptionalInt.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    private static Partition merge(Partition a, Partition b) {
        return new Partition(a.name(), a.up() || b.up(), a.nodes() + b.nodes(), Math.max(a.cpus(), b.cpus()),
                Math.max(a.memoryMib(), b.memoryMib()), Math.max(a.gpus(), b.gpus()), a.nodeList() + "," + b.nodeList());
    }
}
