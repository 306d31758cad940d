package dev.gantry.azure.aks;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A node pool for Gantry to create, decided by the caller: its name ({@link PoolName}), VM size, priority, taints and
 * how far the cluster autoscaler may grow it. {@link AgentPools#beginCreate} adds what every Gantry pool has: a user
 * pool of Linux nodes, autoscaled from 0, Spot pools deleting evicted VMs at up to the on-demand price, and the tag
 * {@value AgentPools#MANAGED_TAG}{@code =true}.
 *
 * @param name the pool's name: 1 to 12 lower-case letters and digits, a letter first
 * @param vmSize e.g. {@code Standard_NC24ads_A100_v4}
 * @param priority regular or Spot VMs
 * @param nodeTaints taints every node of the pool gets, {@code KEY[=VALUE]:EFFECT} (GPU pools: the GPU taint)
 * @param maxNodes the most nodes the autoscaler may start, 1 to 1000
 */
public record PoolRequest(String name, String vmSize, Priority priority, List<String> nodeTaints, int maxNodes) {
    /** The taint syntax AKS takes in {@code nodeTaints}. */
    private static final Pattern TAINT = Pattern.compile("[^=:\\s]+(=[^=:\\s]*)?:(NoSchedule|PreferNoSchedule|NoExecute)");
    /** The most nodes AKS allows one pool. */
    public static final int AKS_MAX_NODES = 1000;

    public PoolRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(priority, "priority");
        nodeTaints = List.copyOf(nodeTaints);
        if (!PoolName.AKS_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("node pool name '" + name + "' is not one AKS accepts: 1 to 12 "
                    + "lower-case letters and digits, a letter first; name pools with PoolName.of(vmSize, priority)");
        }
        if (vmSize.isBlank()) {
            throw new IllegalArgumentException("vmSize of node pool " + name + " is empty: give an Azure VM size, "
                    + "e.g. Standard_NC24ads_A100_v4");
        }
        if (maxNodes < 1 || maxNodes > AKS_MAX_NODES) {
            throw new IllegalArgumentException("maxNodes of node pool " + name + " is " + maxNodes + ": AKS allows "
                    + "1 to " + AKS_MAX_NODES + " nodes in a pool");
        }
        for (String taint : nodeTaints) {
            if (!TAINT.matcher(taint).matches()) {
                throw new IllegalArgumentException("node taint '" + taint + "' of node pool " + name + " is not "
                        + "KEY[=VALUE]:EFFECT with EFFECT NoSchedule, PreferNoSchedule or NoExecute; e.g. "
                        + "sku=gpu:NoSchedule");
            }
        }
    }
}
