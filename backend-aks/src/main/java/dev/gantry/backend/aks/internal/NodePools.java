package dev.gantry.backend.aks.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which AKS node pool each VM size runs in, from {@code nodePools} ({@code VMSIZE=POOL} items). Sizes compare without
 * case, as Azure's do; a size not listed is placed by its instance type alone.
 *
 * @param bySize pool by lower-cased VM size
 */
public record NodePools(Map<String, String> bySize) {
    private static final Pattern SIZE = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,79}");
    /** AKS's rule for Linux pool names: a lower-case letter, then up to 11 lower-case letters or digits. */
    private static final Pattern POOL = Pattern.compile("[a-z][a-z0-9]{0,11}");

    public NodePools {
        bySize = Map.copyOf(bySize);
    }

    public static NodePools none() {
        return new NodePools(Map.of());
    }

    /** The pool of a VM size, when one is listed for it. */
    public Optional<String> poolFor(String vmSize) {
        return Optional.ofNullable(bySize.get(vmSize.toLowerCase(Locale.ROOT)));
    }

    static NodePools bind(BackendConfig config, String key, ConfigProblems problems) {
        Map<String, String> bySize = new LinkedHashMap<>();
        for (String raw : config.getList(key)) {
            String item = raw.strip();
            int eq = item.indexOf('=');
            if (eq < 0) {
                problems.add(key, "'" + item + "' has no '='; write VMSIZE=POOL, e.g. Standard_NC24ads_A100_v4=gpua100");
                continue;
            }
            String size = item.substring(0, eq).strip();
            String pool = item.substring(eq + 1).strip();
            if (!SIZE.matcher(size).matches()) {
                problems.add(key, "'" + item + "': '" + size + "' is not a VM size name; write VMSIZE=POOL, e.g. "
                        + "Standard_NC24ads_A100_v4=gpua100");
                continue;
            }
            if (!POOL.matcher(pool).matches()) {
                problems.add(key, "'" + item + "': '" + pool + "' is not an AKS node pool name: a lower-case letter "
                        + "then up to 11 lower-case letters or digits (az aks nodepool list shows them)");
                continue;
            }
            String previous = bySize.put(size.toLowerCase(Locale.ROOT), pool);
            if (previous != null && !previous.equals(pool)) {
                problems.add(key, "lists " + size + " twice, for " + previous + " and " + pool + "; keep one");
            }
        }
        return new NodePools(bySize);
    }
}
