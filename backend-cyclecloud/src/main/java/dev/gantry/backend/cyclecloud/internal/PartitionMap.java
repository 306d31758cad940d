package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which partition (Slurm) or queue (Grid Engine, PBS) each VM size runs in. A CycleCloud cluster has one node array
 * per partition (its defaults: {@code hpc}, {@code htc}, {@code gpu}, {@code dynamic}), each of one or a few VM
 * sizes. Sizes compare without case, as Azure's do.
 *
 * @param bySize partition by lower-cased VM size
 * @param fallback the partition of sizes not listed; empty: the cluster's default partition
 */
public record PartitionMap(Map<String, String> bySize, Optional<String> fallback) {
    private static final Pattern SIZE = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,79}");
    private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public PartitionMap {
        bySize = Map.copyOf(bySize);
        fallback.ifPresent(p -> {
            if (!PARTITION.matcher(p).matches()) {
                throw new IllegalArgumentException("not a partition name: " + p);
            }
        });
    }

    /** No sizes listed: every job goes to the cluster's default partition. */
    public static PartitionMap clusterDefault() {
        return new PartitionMap(Map.of(), Optional.empty());
    }

    /** The partition for a VM size: its own, else the fallback, else empty (the cluster's default). */
    public Optional<String> partitionFor(String vmSize) {
        return Optional.ofNullable(bySize.get(vmSize.toLowerCase(Locale.ROOT))).or(() -> fallback);
    }

    /** Whether the size is listed itself (not only covered by the fallback). */
    public boolean lists(String vmSize) {
        return bySize.containsKey(vmSize.toLowerCase(Locale.ROOT));
    }

    static PartitionMap bind(BackendConfig config, String key, String fallbackKey, ConfigProblems problems) {
        Map<String, String> bySize = new LinkedHashMap<>();
        List<String> items = config.getList(key);
        for (String raw : items) {
            String item = raw.strip();
            int eq = item.indexOf('=');
            String size = eq < 0 ? "" : item.substring(0, eq).strip();
            String partition = eq < 0 ? "" : item.substring(eq + 1).strip();
            if (!SIZE.matcher(size).matches() || !PARTITION.matcher(partition).matches()) {
                problems.add(key, "'" + item + "' is not VMSIZE=PARTITION; write e.g. Standard_ND96asr_v4=gpu "
                        + "(partition names: letters, digits, '.', '_' and '-')");
                continue;
            }
            String previous = bySize.put(size.toLowerCase(Locale.ROOT), partition);
            if (previous != null && !previous.equals(partition)) {
                problems.add(key, "lists " + size + " twice, for " + previous + " and " + partition + "; keep one");
            }
        }
        Optional<String> fallback = config.get(fallbackKey).map(String::strip).filter(s -> !s.isEmpty());
        if (fallback.isPresent() && !PARTITION.matcher(fallback.get()).matches()) {
            problems.add(fallbackKey, "'" + fallback.get() + "' is not a partition name; use letters, digits, '.', "
                    + "'_' and '-' (sinfo lists the partitions)");
            fallback = Optional.empty();
        }
        return new PartitionMap(bySize, fallback);
    }
}
