package dev.gantry.azure.vm;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What Resource Manager says about a scale set, as far as deciding whether to reuse it needs.
 *
 * @param id its resource ID
 * @param region its location
 * @param vmSize its instances' size, empty text when Azure reports none
 * @param capacity how many instances it holds
 * @param zones its zones (empty for a regional set)
 * @param orchestrationMode {@code Uniform} or {@code Flexible}
 * @param singlePlacementGroup whether it is limited to one placement group
 * @param provisioningState {@code Succeeded}, {@code Updating}, {@code Failed}, ...
 * @param tags its tags
 */
public record ScaleSetFacts(String id, String region, String vmSize, long capacity, List<String> zones,
                            String orchestrationMode, boolean singlePlacementGroup, String provisioningState,
                            Map<String, String> tags) {
    public ScaleSetFacts {
        Objects.requireNonNull(id, "id");
        zones = List.copyOf(zones);
        tags = Map.copyOf(tags);
    }
}
