package dev.gantry.azure.vm;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What Resource Manager says about a Virtual Machine Scale Set, as far as deciding whether VMs may join it needs.
 *
 * @param id its resource ID
 * @param region its location
 * @param orchestrationMode {@code Flexible} or {@code Uniform}; empty text when Azure reports none
 * @param singlePlacementGroup whether it is limited to one placement group (Azure reports it; absent reads false)
 * @param zones its availability zones, empty for a regional scale set
 * @param tags its tags
 */
public record ScaleSetFacts(String id, String region, String orchestrationMode, boolean singlePlacementGroup,
                            List<String> zones, Map<String, String> tags) {
    public ScaleSetFacts {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(orchestrationMode, "orchestrationMode");
        zones = List.copyOf(zones);
        tags = Map.copyOf(tags);
    }
}
