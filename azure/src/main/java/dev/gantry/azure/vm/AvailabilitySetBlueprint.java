package dev.gantry.azure.vm;

import java.util.Map;
import java.util.Objects;

/**
 * An availability set that holds VMs which must share one InfiniBand fabric. Azure's "Orchestration modes for Virtual
 * Machine Scale Sets" (Networking: "Infiniband Networking") supports InfiniBand in availability sets and in Uniform
 * scale sets limited to one placement group, not in Flexible scale sets; an availability set holds ordinary VMs,
 * which Gantry creates, names and deletes one by one as it does every other VM.
 *
 * @param resourceGroup the set's resource group
 * @param region the region (an availability set has no zones)
 * @param name the set's name
 * @param tags the set's tags
 */
public record AvailabilitySetBlueprint(String resourceGroup, String region, String name, Map<String, String> tags) {
    public AvailabilitySetBlueprint {
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(name, "name");
        tags = Map.copyOf(tags);
    }
}
