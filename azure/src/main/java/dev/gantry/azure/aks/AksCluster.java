package dev.gantry.azure.aks;

import java.util.Objects;

/**
 * One AKS cluster of the subscription an {@link AgentPools} is connected to.
 *
 * @param resourceGroup the cluster's resource group
 * @param name the managed cluster's name
 */
public record AksCluster(String resourceGroup, String name) {
    public AksCluster {
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return resourceGroup + "/" + name;
    }
}
