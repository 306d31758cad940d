package dev.gantry.azure.aks;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One node pool of an AKS cluster as Azure reports it.
 *
 * @param name the pool's name
 * @param vmSize the size of its VMs, empty text when Azure reports none
 * @param priority regular or Spot VMs
 * @param nodes how many nodes it has now ({@code count})
 * @param autoscaling whether the cluster autoscaler sizes it
 * @param minNodes the autoscaler's lower bound, when it has one
 * @param maxNodes the autoscaler's upper bound, when it has one
 * @param nodeTaints the taints of its nodes
 * @param tags its Azure tags
 * @param provisioningState {@code Creating}, {@code Succeeded}, {@code Failed}, {@code Deleting}, ...
 * @param powerState {@code Running} or {@code Stopped}, when Azure says
 */
public record AgentPool(String name, String vmSize, Priority priority, int nodes, boolean autoscaling,
                        OptionalInt minNodes, OptionalInt maxNodes, List<String> nodeTaints,
                        Map<String, String> tags, String provisioningState, Optional<String> powerState) {
    public AgentPool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(minNodes, "minNodes");
        Objects.requireNonNull(maxNodes, "maxNodes");
        nodeTaints = List.copyOf(nodeTaints);
        tags = Map.copyOf(tags);
        Objects.requireNonNull(provisioningState, "provisioningState");
        Objects.requireNonNull(powerState, "powerState");
    }

    /**
     * Whether Gantry created it: tagged {@value AgentPools#MANAGED_TAG}{@code =true} (tag names compared without
     * case, as Azure compares them). Gantry never changes or deletes a pool that is not.
     */
    public boolean managedByGantry() {
        return tags.entrySet().stream().anyMatch(tag -> tag.getKey().equalsIgnoreCase(AgentPools.MANAGED_TAG)
                && "true".equals(tag.getValue()));
    }
}
