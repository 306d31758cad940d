package dev.gantry.core.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One row of the project's size-facts table ({@code size-facts.csv}): facts about a VM size that the SkyPilot CSV
 * lacks or gets wrong. A present value wins over the CSV; an empty one keeps the CSV's.
 *
 * @param size the Azure size name
 * @param accelerator the catalog accelerator name ({@code H100}, {@code A10}, ...)
 * @param gpuModel the GPU table row ({@code H100-NVL} for the NC H100 v5 sizes)
 * @param gpuCount GPUs per VM (a GPU partition counts as one)
 * @param gpuMemoryGib memory per GPU (the partition's memory for partitioned GPUs)
 * @param vcpus vCPUs, for sizes the CSV lacks
 * @param memoryGib memory, for sizes the CSV lacks
 * @param rdma whether the size has InfiniBand RDMA
 * @param hyperVGenerations generations, for sizes the CSV lacks (empty set: keep the CSV's)
 * @param addToRegionsOf for a size the CSV lacks: list it, prices unknown, in the regions of this size
 * @param interconnect how the GPUs are connected, for the reasons a plan gives
 * @param source the Azure documentation page the facts come from
 */
public record SizeFacts(String size, Optional<String> accelerator, Optional<String> gpuModel, OptionalInt gpuCount,
                        OptionalDouble gpuMemoryGib, OptionalInt vcpus, OptionalDouble memoryGib,
                        Optional<Boolean> rdma, Set<String> hyperVGenerations, Optional<String> addToRegionsOf,
                        String interconnect, String source) {
    private static final List<String> COLUMNS = List.of("size", "accelerator", "gpuModel", "gpuCount",
            "gpuMemoryGib", "vcpus", "memoryGib", "rdma", "generations", "addToRegionsOf", "interconnect", "source");
    private static volatile Map<String, SizeFacts> standard;

    public SizeFacts {
        Objects.requireNonNull(size, "size");
        hyperVGenerations = Set.copyOf(hyperVGenerations);
        Objects.requireNonNull(interconnect, "interconnect");
        Objects.requireNonNull(source, "source");
    }

    /** The project's size-facts table by size name, in file order. */
    public static Map<String, SizeFacts> standard() {
        Map<String, SizeFacts> facts = standard;
        if (facts == null) {
            facts = load();
            standard = facts;
        }
        return facts;
    }

    private static Map<String, SizeFacts> load() {
        LinkedHashMap<String, SizeFacts> facts = new LinkedHashMap<>();
        for (TableText.Row row : TableText.resource("size-facts.csv", COLUMNS).rows()) {
            String rdma = row.get("rdma");
            if (!rdma.isEmpty() && !rdma.equals("true") && !rdma.equals("false")) {
                throw row.invalid("rdma", "is '" + rdma + "'; expected true, false or empty");
            }
            String generations = row.get("generations");
            SizeFacts fact = new SizeFacts(row.required("size"), optional(row.get("accelerator")),
                    optional(row.get("gpuModel")), row.optionalInt("gpuCount"), row.optionalDouble("gpuMemoryGib"),
                    row.optionalInt("vcpus"), row.optionalDouble("memoryGib"),
                    rdma.isEmpty() ? Optional.empty() : Optional.of(Boolean.parseBoolean(rdma)),
                    generations.isEmpty() ? Set.of() : Set.of(generations.split("[ ,]+")),
                    optional(row.get("addToRegionsOf")), row.get("interconnect"), row.required("source"));
            facts.put(fact.size(), fact);
        }
        return Collections.unmodifiableMap(facts);
    }

    private static Optional<String> optional(String cell) {
        return cell.isEmpty() ? Optional.empty() : Optional.of(cell);
    }
}
