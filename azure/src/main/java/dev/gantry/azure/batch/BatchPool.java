package dev.gantry.azure.batch;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pool as Resource Manager describes it ({@code Pool_Get}): enough to adopt a pool that already exists (its
 * metadata carries Gantry's mark and digest) and to see it being made or removed.
 *
 * @param provisioningState {@code Succeeded} or {@code Deleting}
 * @param allocationState {@code Steady}, {@code Resizing} or {@code Stopping}
 * @param identities the resource ids of its user-assigned identities
 */
public record BatchPool(String name, String vmSize, String provisioningState, String allocationState,
        Map<String, String> metadata, List<String> identities, int currentDedicatedNodes,
        int currentLowPriorityNodes) {
    public BatchPool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(provisioningState, "provisioningState");
        Objects.requireNonNull(allocationState, "allocationState");
        metadata = Map.copyOf(metadata);
        identities = List.copyOf(identities);
    }
}
