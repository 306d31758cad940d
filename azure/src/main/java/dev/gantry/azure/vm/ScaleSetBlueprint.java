package dev.gantry.azure.vm;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Virtual Machine Scale Set in Flexible orchestration that holds VMs which must share one InfiniBand fabric: one
 * placement group, one fault domain, at most one zone. It has no VM profile; Gantry creates each VM itself and names
 * the scale set in the VM's {@code virtualMachineScaleSet}, so that every VM keeps its own name, NIC and disk.
 *
 * @param resourceGroup the scale set's resource group
 * @param region the region
 * @param name the scale set's name
 * @param zone the one availability zone its VMs go to, or empty for a regional (zoneless) scale set
 * @param tags the scale set's tags
 */
public record ScaleSetBlueprint(String resourceGroup, String region, String name, Optional<String> zone,
                                Map<String, String> tags) {
    public ScaleSetBlueprint {
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(zone, "zone");
        tags = Map.copyOf(tags);
    }
}
