package dev.gantry.backend.aks.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The AKS cluster whose node pools Gantry may create, from {@code azure.*}: when given, a plan's size gets a pool of
 * its own (autoscaled from 0 to {@code maxNodes}) before its job is submitted.
 *
 * @param subscription the subscription id
 * @param resourceGroup the cluster's resource group
 * @param cluster the managed cluster's name
 * @param maxNodes the most nodes the autoscaler may give a pool Gantry creates
 */
public record AzurePools(String subscription, String resourceGroup, String cluster, int maxNodes) {
    public static final String PREFIX = "azure";
    public static final String SUBSCRIPTION = PREFIX + ".subscription";
    public static final String RESOURCE_GROUP = PREFIX + ".resourceGroup";
    public static final String CLUSTER = PREFIX + ".cluster";
    public static final String MAX_NODES = PREFIX + ".maxNodes";
    static final List<String> KEYS = List.of(SUBSCRIPTION, RESOURCE_GROUP, CLUSTER, MAX_NODES);

    private static final Pattern GUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** Azure's rule for resource group names. */
    private static final Pattern RESOURCE_GROUP_NAME = Pattern.compile("[-\\w._()]{0,89}[-\\w_()]");
    /** Azure's rule for managed cluster names. */
    private static final Pattern CLUSTER_NAME = Pattern.compile("[A-Za-z0-9]([-_A-Za-z0-9]{0,61}[A-Za-z0-9])?");
    /** A bound on what one setting may ask the autoscaler for; AKS allows 1000 nodes per pool. */
    private static final int MOST_NODES = 1000;

    public AzurePools {
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(cluster, "cluster");
    }

    /** The pools' settings when any {@code azure.*} key is given; each missing or wrong one is a problem. */
    static Optional<AzurePools> bind(BackendConfig config, ConfigProblems problems) {
        if (KEYS.stream().allMatch(key -> config.get(key).filter(v -> !v.isBlank()).isEmpty())) {
            return Optional.empty();
        }
        String subscription = part(config, SUBSCRIPTION, GUID, "a subscription id (a GUID, as az account show "
                + "prints it)", problems);
        String group = part(config, RESOURCE_GROUP, RESOURCE_GROUP_NAME, "a resource group name (letters, digits, "
                + "'-', '_', '.', '(' and ')', up to 90, not ending in '.')", problems);
        String cluster = part(config, CLUSTER, CLUSTER_NAME, "an AKS cluster name (letters, digits, '-' and '_', up "
                + "to 63, a letter or digit at each end; az aks list shows them)", problems);
        Integer maxNodes = null;
        if (config.get(MAX_NODES).filter(v -> !v.isBlank()).isEmpty()) {
            problems.add(MAX_NODES, "is required with the other azure settings: the most nodes a pool Gantry creates "
                    + "may grow to, e.g. 4");
        } else {
            maxNodes = problems.read(() -> config.getInt(MAX_NODES, 1, 1, MOST_NODES), null);
        }
        if (subscription == null || group == null || cluster == null || maxNodes == null) {
            return Optional.empty();
        }
        return Optional.of(new AzurePools(subscription, group, cluster, maxNodes));
    }

    private static String part(BackendConfig config, String key, Pattern allowed, String what,
                               ConfigProblems problems) {
        Optional<String> value = config.get(key).map(String::strip).filter(v -> !v.isEmpty());
        if (value.isEmpty()) {
            problems.add(key, "is required with the other azure settings: " + what + "; or remove every azure "
                    + "setting to use existing node pools only");
            return null;
        }
        if (!allowed.matcher(value.get()).matches()) {
            problems.add(key, "'" + value.get() + "' is not " + what);
            return null;
        }
        return value.get();
    }
}
