package dev.gantry.azure.vm;

import java.util.Map;
import java.util.Objects;

/**
 * What Resource Manager says about an availability set, as far as deciding whether VMs may join it needs.
 *
 * @param id its resource ID
 * @param region its location
 * @param sku {@code Aligned} (for VMs with managed disks) or {@code Classic}; empty text when Azure reports none
 * @param tags its tags
 */
public record AvailabilitySetFacts(String id, String region, String sku, Map<String, String> tags) {
    public AvailabilitySetFacts {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(sku, "sku");
        tags = Map.copyOf(tags);
    }
}
