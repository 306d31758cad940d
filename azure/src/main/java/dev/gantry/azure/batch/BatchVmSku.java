package dev.gantry.azure.batch;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A VM size Batch supports in a region ({@code Location_ListSupportedVirtualMachineSkus}): its name, its family (the
 * quota it counts against), its capabilities as Azure names them ({@code vCPUs}, {@code MemoryGB},
 * {@code LowPriorityCapable}, {@code GPUs}, ...) and, for a size being retired, when Batch stops supporting it.
 */
public record BatchVmSku(String name, String familyName, Map<String, String> capabilities,
        Optional<Instant> batchSupportEndOfLife) {
    public BatchVmSku {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(familyName, "familyName");
        capabilities = Map.copyOf(capabilities);
        Objects.requireNonNull(batchSupportEndOfLife, "batchSupportEndOfLife");
    }

    public OptionalInt vCpus() {
        try {
            String value = capabilities.get("vCPUs");
            return value == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** Whether Spot (low-priority) nodes of this size can be had; Azure says {@code True} or {@code False}. */
    public boolean lowPriorityCapable() {
        return "true".equalsIgnoreCase(capabilities.getOrDefault("LowPriorityCapable", "false").strip());
    }
}
