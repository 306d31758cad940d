package dev.gantry.core.catalog;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.VmSize;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a catalog in SkyPilot's Azure CSV format ({@code InstanceType,AcceleratorName,AcceleratorCount,vCPUs,
 * MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation}) into a {@link Catalog}, correcting the CSV's known faults
 * with the project's tables and listing every correction in the catalog's provenance:
 * <ul>
 *   <li>the size-facts table wins over the CSV where they disagree (GPU count, accelerator, RDMA, ...);</li>
 *   <li>sizes with no accelerator name take it from the size-facts table;</li>
 *   <li>a constrained-vCPU size counts its constrained vCPUs ({@code E32-16as_v5} offers 16);</li>
 *   <li>a missing or zero price is unknown, and so is a spot price equal to or above the on-demand price;</li>
 *   <li>sizes the CSV lacks are added from the size-facts table, with unknown prices, in the regions of the size
 *       the table names.</li>
 * </ul>
 */
public final class CatalogImporter {
    /** SkyPilot's Azure catalog columns, in its order. */
    public static final List<String> SKYPILOT_COLUMNS = List.of("InstanceType", "AcceleratorName",
            "AcceleratorCount", "vCPUs", "MemoryGiB", "GpuInfo", "Price", "SpotPrice", "Region", "Generation");

    private final Map<String, GpuModel> gpuModels;
    private final Map<String, SizeFacts> sizeFacts;
    private final List<RetiredSeries> retired;

    public CatalogImporter(Map<String, GpuModel> gpuModels, Map<String, SizeFacts> sizeFacts,
                           List<RetiredSeries> retired) {
        this.gpuModels = Map.copyOf(gpuModels);
        this.sizeFacts = new LinkedHashMap<>(sizeFacts);
        this.retired = List.copyOf(retired);
    }

    /** An importer with the project's GPU table, size-facts table and retired-series list. */
    public static CatalogImporter standard() {
        return new CatalogImporter(GpuModels.standard(), SizeFacts.standard(), RetiredSeries.azureRetirements());
    }

    /**
     * Reads a SkyPilot Azure CSV.
     *
     * @param csv the CSV text
     * @param file the file name for error messages ({@code file:line: column 'X' ...})
     * @param info the catalog's source and price date
     * @param provenance statements about the source to put before the corrections
     */
    public Catalog importSkyPilot(Reader csv, String file, CatalogInfo info, List<String> provenance) {
        TableText.Table table = TableText.read(csv, file, SKYPILOT_COLUMNS);
        Corrections corrections = new Corrections();
        List<CatalogEntry> entries = new ArrayList<>(table.rows().size() + 64);
        Map<String, Set<String>> regionsBySize = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        entries.addAll(TableText.eachRow(table.rows(), row -> {
            CatalogEntry entry = entry(row, corrections);
            if (!seen.add(entry.size().name() + "@" + entry.region())) {
                throw row.invalid("Region", "repeats size " + entry.size().name() + " in region " + entry.region()
                        + "; each size and region may appear once");
            }
            regionsBySize.computeIfAbsent(entry.size().name(), k -> new TreeSet<>()).add(entry.region());
            return entry;
        }));
        for (SizeFacts facts : sizeFacts.values()) {
            if (regionsBySize.containsKey(facts.size()) || facts.addToRegionsOf().isEmpty()) {
                continue;
            }
            Set<String> regions = regionsBySize.getOrDefault(facts.addToRegionsOf().get(), Set.of());
            for (String region : regions) {
                entries.add(new CatalogEntry(missingSize(facts), region, OptionalDouble.empty(),
                        OptionalDouble.empty(), gpuModelOf(facts.gpuModel()), Optional.empty()));
            }
            corrections.note("size absent from the CSV added from the size-facts table with unknown prices, in the"
                    + " regions of " + facts.addToRegionsOf().get(), facts.size() + " (" + regions.size()
                    + " regions; " + facts.source() + ")");
        }
        List<String> lines = new ArrayList<>(provenance);
        lines.addAll(corrections.statements());
        return new Catalog(entries, info, gpuModels, retired, lines);
    }

    private CatalogEntry entry(TableText.Row row, Corrections corrections) {
        String name = row.required("InstanceType");
        SizeName sizeName = SizeName.parse(name).orElseThrow(() -> row.invalid("InstanceType", "is '" + name
                + "', which does not follow Azure's size naming (e.g. Standard_NC24ads_A100_v4)"));
        Optional<SizeFacts> facts = Optional.ofNullable(sizeFacts.get(name));
        String region = row.required("Region");

        String csvAccelerator = row.get("AcceleratorName");
        OptionalInt csvCount = row.optionalInt("AcceleratorCount");
        Optional<String> accelerator = facts.flatMap(SizeFacts::accelerator);
        if (accelerator.isPresent() && csvAccelerator.isEmpty()) {
            corrections.note("accelerator name missing in the CSV, taken from the size-facts table", name + " → "
                    + accelerator.get());
        } else if (accelerator.isPresent() && !accelerator.get().equals(csvAccelerator)) {
            corrections.note("accelerator name corrected by the size-facts table", name + ": CSV " + csvAccelerator
                    + " → " + accelerator.get());
        } else if (accelerator.isEmpty() && !csvAccelerator.isEmpty()) {
            accelerator = Optional.of(csvAccelerator);
        }
        Optional<GpuSpec> gpu = Optional.empty();
        Optional<GpuModel> model = Optional.empty();
        if (accelerator.isPresent()) {
            int count;
            if (facts.isPresent() && facts.get().gpuCount().isPresent()) {
                count = facts.get().gpuCount().getAsInt();
                if (csvCount.isPresent() && csvCount.getAsInt() != count) {
                    corrections.note("GPU count corrected by the size-facts table", name + ": CSV "
                            + csvCount.getAsInt() + " → " + count + " (" + facts.get().source() + ")");
                }
            } else if (csvCount.isPresent() && csvCount.getAsInt() >= 1) {
                count = csvCount.getAsInt();
            } else {
                throw row.invalid("AcceleratorCount", "is '" + row.get("AcceleratorCount") + "' but AcceleratorName is '"
                        + accelerator.get() + "'; a GPU size needs a count >= 1");
            }
            String modelName = facts.flatMap(SizeFacts::gpuModel)
                    .orElse(GpuModels.modelName(accelerator.get(), sizeName));
            GpuModel gpuModel = gpuModels.get(modelName);
            if (gpuModel == null) {
                throw row.invalid("AcceleratorName", "is '" + accelerator.get() + "', a GPU model the project does"
                        + " not know; known: " + new TreeSet<>(gpuModels.keySet()));
            }
            double memory = facts.isPresent() && facts.get().gpuMemoryGib().isPresent()
                    ? facts.get().gpuMemoryGib().getAsDouble() : gpuModel.memoryGib();
            gpu = Optional.of(new GpuSpec(accelerator.get(), count, memory, gpuModel.vendor()));
            model = Optional.of(gpuModel);
        }

        double csvVcpus = row.optionalDouble("vCPUs").orElseThrow(() -> row.invalid("vCPUs", "is empty"));
        int vcpus = (int) Math.round(csvVcpus);
        if (facts.isPresent() && facts.get().vcpus().isPresent()) {
            vcpus = facts.get().vcpus().getAsInt();
        } else if (sizeName.constrainedVcpus().isPresent() && sizeName.constrainedVcpus().getAsInt() != vcpus) {
            corrections.note("constrained-vCPU size counted with its constrained vCPUs, not the CSV's vCPUs",
                    name + ": " + vcpus + " → " + sizeName.constrainedVcpus().getAsInt());
            vcpus = sizeName.constrainedVcpus().getAsInt();
        }
        if (vcpus < 1) {
            throw row.invalid("vCPUs", "is '" + row.get("vCPUs") + "'; expected at least 1");
        }
        double memory = facts.flatMap(f -> f.memoryGib().isPresent() ? Optional.of(f.memoryGib().getAsDouble())
                : Optional.empty()).orElseGet(() -> row.optionalDouble("MemoryGiB")
                .orElseThrow(() -> row.invalid("MemoryGiB", "is empty")));
        if (!(memory > 0)) {
            throw row.invalid("MemoryGiB", "is '" + row.get("MemoryGiB") + "'; expected a number > 0");
        }
        Set<String> generations = generations(row);
        if (facts.isPresent() && !facts.get().hyperVGenerations().isEmpty()) {
            generations = facts.get().hyperVGenerations();
        }
        boolean rdma = facts.flatMap(SizeFacts::rdma).orElse(sizeName.rdma());
        if (rdma != sizeName.rdma()) {
            corrections.note("RDMA flag taken from the size-facts table, not the size name", name + " → " + rdma);
        }
        VmSize size = new VmSize(name, sizeName.family(), vcpus, memory, gpu, rdma,
                sizeName.arm64() ? Architecture.ARM64 : Architecture.X64, generations);

        OptionalDouble onDemand = price(row, "Price", name, corrections);
        OptionalDouble spot = price(row, "SpotPrice", name, corrections);
        if (spot.isPresent() && onDemand.isPresent() && spot.getAsDouble() >= onDemand.getAsDouble()) {
            corrections.note("spot price equal to or above the on-demand price treated as unknown",
                    name + "@" + region);
            spot = OptionalDouble.empty();
        }
        return new CatalogEntry(size, region, onDemand, spot, model, Optional.empty());
    }

    private static OptionalDouble price(TableText.Row row, String column, String name, Corrections corrections) {
        OptionalDouble price = row.optionalDouble(column);
        if (price.isEmpty()) {
            corrections.count(column + " missing: kept unknown");
            return price;
        }
        if (price.getAsDouble() == 0) {
            corrections.note(column + " of zero treated as unknown", name + "@" + row.get("Region"));
            return OptionalDouble.empty();
        }
        return price;
    }

    private static Set<String> generations(TableText.Row row) {
        String text = row.required("Generation");
        Set<String> generations = new TreeSet<>();
        for (String generation : text.split("[ ,]+")) {
            if (!generation.equals("V1") && !generation.equals("V2")) {
                throw row.invalid("Generation", "is '" + text + "'; expected V1, V2 or \"V1,V2\"");
            }
            generations.add(generation);
        }
        return generations;
    }

    private VmSize missingSize(SizeFacts facts) {
        SizeName name = SizeName.parseOrThrow(facts.size());
        String accelerator = facts.accelerator().orElseThrow(() -> incomplete(facts, "accelerator"));
        GpuModel model = gpuModelOf(facts.gpuModel()).orElseThrow(() -> incomplete(facts, "gpuModel"));
        GpuSpec gpu = new GpuSpec(accelerator, facts.gpuCount().orElseThrow(() -> incomplete(facts, "gpuCount")),
                facts.gpuMemoryGib().orElse(model.memoryGib()), model.vendor());
        if (facts.hyperVGenerations().isEmpty()) {
            throw incomplete(facts, "generations");
        }
        return new VmSize(facts.size(), name.family(), facts.vcpus().orElseThrow(() -> incomplete(facts, "vcpus")),
                facts.memoryGib().orElseThrow(() -> incomplete(facts, "memoryGib")), Optional.of(gpu),
                facts.rdma().orElse(name.rdma()), name.arm64() ? Architecture.ARM64 : Architecture.X64,
                facts.hyperVGenerations());
    }

    private Optional<GpuModel> gpuModelOf(Optional<String> name) {
        return name.map(gpuModels::get);
    }

    private static IllegalStateException incomplete(SizeFacts facts, String column) {
        return new IllegalStateException("size-facts.csv: " + facts.size() + " is absent from the CSV, so column '"
                + column + "' is required");
    }

    /** The corrections applied, grouped by kind, each with the sizes it touched. */
    private static final class Corrections {
        private final Map<String, Set<String>> byKind = new LinkedHashMap<>();
        private final Map<String, Integer> counts = new LinkedHashMap<>();

        void note(String kind, String detail) {
            byKind.computeIfAbsent(kind, k -> new LinkedHashSet<>()).add(detail);
        }

        void count(String kind) {
            counts.merge(kind, 1, Integer::sum);
        }

        List<String> statements() {
            List<String> lines = new ArrayList<>();
            for (Map.Entry<String, Set<String>> kind : byKind.entrySet()) {
                Set<String> details = kind.getValue();
                StringBuilder line = new StringBuilder("correction: ").append(kind.getKey()).append(" (")
                        .append(details.size()).append("): ");
                // Row-level corrections repeat per region; list the sizes once to keep the header short.
                Set<String> shown = new LinkedHashSet<>();
                for (String detail : details) {
                    int at = detail.indexOf('@');
                    shown.add(at > 0 ? detail.substring(0, at) : detail);
                }
                line.append(String.join("; ", shown));
                lines.add(Objects.requireNonNull(line.toString()));
            }
            for (Map.Entry<String, Integer> count : counts.entrySet()) {
                lines.add("note: " + count.getKey() + " (" + count.getValue() + " rows)");
            }
            return lines;
        }
    }
}
