package dev.gantry.azure.vm;

import java.util.Map;
import java.util.Objects;

/**
 * A virtual network with one subnet, as Gantry creates it when the named one does not exist.
 *
 * @param resourceGroup the network's resource group
 * @param region the region
 * @param virtualNetwork the network's name
 * @param addressSpace the network's address space, e.g. {@code 10.210.0.0/16}
 * @param subnet the subnet's name
 * @param subnetPrefix the subnet's prefix, e.g. {@code 10.210.0.0/20}
 * @param tags the network's tags
 */
public record NetworkBlueprint(String resourceGroup, String region, String virtualNetwork, String addressSpace,
                               String subnet, String subnetPrefix, Map<String, String> tags) {
    public NetworkBlueprint {
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(virtualNetwork, "virtualNetwork");
        Objects.requireNonNull(addressSpace, "addressSpace");
        Objects.requireNonNull(subnet, "subnet");
        Objects.requireNonNull(subnetPrefix, "subnetPrefix");
        tags = Map.copyOf(tags);
    }
}
