package dev.gantry.core.advisor;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.GpuModel;
import dev.gantry.core.catalog.RetiredSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalog flattened into primitive columns and grouped by the families the sizing rules look at, built once per
 * catalog so that planning one workload touches only the rows of its family and allocates nothing per row.
 */
final class CatalogIndex {
    /** Family groups (rule 2 and rule 5). */
    static final byte ND = 1;
    static final byte NC = 2;
    static final byte MEMORY_OPTIMIZED = 3;
    static final byte COMPUTE_OPTIMIZED = 4;
    static final byte OTHER = 0;

    /** {@code Standard_E32-16as_v5}: 32 vCPUs of which 16 are usable. */
    private static final Pattern CONSTRAINED = Pattern.compile("^[A-Za-z]+_[A-Za-z]+\\d+-(\\d+)[A-Za-z].*");

    final Catalog catalog;
    final CatalogEntry[] entries;
    final String[] regionNames;
    final Map<String, Integer> regionIds;
    final String[] sizeNames;
    /** The size names in lower case, by rank: how a subscription's offers are looked up, without a copy per row. */
    final String[] sizeKeys;
    final int[] region;
    /** Index of the size name in name order: comparing it compares names. */
    final int[] sizeRank;
    final byte[] group;
    final int[] gpuCount;
    final double[] gpuMemoryGib;
    final GpuVendor[] vendor;
    final boolean[] rdma;
    final int[] vcpus;
    final double[] memoryGib;
    /** Arm64, burstable or basic: never chosen (rule 5). */
    final boolean[] excludedKind;
    final String[] retiredSeries;
    final String[] restriction;
    /**
     * Per row, the zones the catalog records where its refreshing subscription could allocate the size; null where it
     * records none (see {@link CatalogEntry#zones()}).
     */
    final List<String>[] catalogZones;
    /** Per row, {@link #catalogZones} as a {@link RegionRows#mask}. */
    final byte[] catalogZoneMask;
    /** Whether any row records its zones: plans without a subscription to ask then keep to them. */
    final boolean recordsZones;
    final double[] onDemand;
    final double[] spot;
    final double[] tflops;
    final int[] releaseYear;
    /**
     * Per row, the constraints of {@link Constraint#ALL} that depend only on the row and the capacity type
     * ({@link Constraint.OfRow}) and reject it on on-demand capacity, one bit per position in that list.
     */
    final long[] onDemandRejections;
    /** The same for spot capacity. */
    final long[] spotRejections;
    /** ND and NC rows: the GPU universe (NV is never chosen). */
    final int[] gpuRows;
    /** E and M rows. */
    final int[] memoryOptimizedRows;
    /** F rows. */
    final int[] computeOptimizedRows;

    @SuppressWarnings("unchecked")
    CatalogIndex(Catalog catalog) {
        this.catalog = catalog;
        List<CatalogEntry> list = catalog.entries();
        int n = list.size();
        entries = list.toArray(new CatalogEntry[0]);
        regionNames = catalog.regions().toArray(new String[0]);
        regionIds = new HashMap<>();
        for (int i = 0; i < regionNames.length; i++) {
            regionIds.put(regionNames[i], i);
        }
        // A catalog lists each size once per region (5,975 rows of 844 sizes in the embedded one), and
        // everything but the region, prices and restriction is a fact of the size: derived once per size, which is
        // most of the index's cost on a cold start (the name pattern, the retired series and the GPU model). Sizes
        // are told apart by identity, which the compact catalog shares between rows; a catalog that does not share
        // them costs one derivation per row, as before.
        Map<VmSize, SizeFacts> factsOf = new IdentityHashMap<>();
        Map<String, Integer> rankOf = new HashMap<>();
        for (CatalogEntry entry : list) {
            factsOf.computeIfAbsent(entry.size(), size -> new SizeFacts(size, catalog));
            rankOf.putIfAbsent(entry.size().name(), 0);
        }
        sizeNames = rankOf.keySet().toArray(new String[0]);
        Arrays.sort(sizeNames);
        sizeKeys = new String[sizeNames.length];
        for (int i = 0; i < sizeNames.length; i++) {
            rankOf.put(sizeNames[i], i);
            sizeKeys[i] = sizeNames[i].toLowerCase(Locale.ROOT);
        }

        region = new int[n];
        sizeRank = new int[n];
        group = new byte[n];
        gpuCount = new int[n];
        gpuMemoryGib = new double[n];
        vendor = new GpuVendor[n];
        rdma = new boolean[n];
        vcpus = new int[n];
        memoryGib = new double[n];
        excludedKind = new boolean[n];
        retiredSeries = new String[n];
        restriction = new String[n];
        catalogZones = new List[n];
        catalogZoneMask = new byte[n];
        boolean zonesRecorded = false;
        onDemand = new double[n];
        spot = new double[n];
        tflops = new double[n];
        releaseYear = new int[n];
        List<Integer> gpu = new ArrayList<>();
        List<Integer> memory = new ArrayList<>();
        List<Integer> compute = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CatalogEntry entry = entries[i];
            SizeFacts facts = factsOf.get(entry.size());
            region[i] = regionIds.get(entry.region());
            sizeRank[i] = rankOf.get(facts.name);
            group[i] = facts.group;
            gpuCount[i] = facts.gpuCount;
            gpuMemoryGib[i] = facts.gpuMemoryGib;
            vendor[i] = facts.vendor;
            rdma[i] = facts.rdma;
            vcpus[i] = facts.vcpus;
            memoryGib[i] = facts.memoryGib;
            excludedKind[i] = facts.excludedKind;
            retiredSeries[i] = facts.retiredSeries;
            restriction[i] = entry.restriction().orElse(null);
            if (entry.zones().isPresent()) {
                catalogZones[i] = entry.zones().get();
                catalogZoneMask[i] = RegionRows.mask(catalogZones[i]);
                zonesRecorded = true;
            }
            onDemand[i] = known(entry.price(false).orElse(Double.NaN));
            spot[i] = known(entry.price(true).orElse(Double.NaN));
            // A row may name its own GPU model (a catalog file's column); otherwise the size's model holds.
            Optional<GpuModel> model = entry.gpuModel();
            tflops[i] = model.isPresent() ? tflops(model.get()) : facts.tflops;
            releaseYear[i] = model.isPresent() ? model.get().releaseYear() : facts.releaseYear;
            switch (group[i]) {
                case ND, NC -> gpu.add(i);
                case MEMORY_OPTIMIZED -> memory.add(i);
                case COMPUTE_OPTIMIZED -> compute.add(i);
                default -> { }
            }
        }
        if (Constraint.ALL.size() > Long.SIZE) {
            throw new IllegalStateException("onDemandRejections holds one bit per constraint, at most " + Long.SIZE);
        }
        recordsZones = zonesRecorded;
        onDemandRejections = rowRejections(n, false);
        spotRejections = rowRejections(n, true);
        gpuRows = gpu.stream().mapToInt(Integer::intValue).toArray();
        memoryOptimizedRows = memory.stream().mapToInt(Integer::intValue).toArray();
        computeOptimizedRows = compute.stream().mapToInt(Integer::intValue).toArray();
    }

    int size() {
        return entries.length;
    }

    /** Every {@link Constraint.OfRow} check on every row, once. */
    private long[] rowRejections(int rows, boolean spotCapacity) {
        long[] rejections = new long[rows];
        for (int p = 0; p < Constraint.ALL.size(); p++) {
            if (Constraint.ALL.get(p) instanceof Constraint.OfRow check) {
                for (int i = 0; i < rows; i++) {
                    if (check.rejects(this, i, spotCapacity)) {
                        rejections[i] |= 1L << p;
                    }
                }
            }
        }
        return rejections;
    }

    double price(int row, boolean spotCapacity) {
        return spotCapacity ? spot[row] : onDemand[row];
    }

    String name(int row) {
        return entries[row].size().name();
    }

    String regionName(int row) {
        return regionNames[region[row]];
    }

    /** Missing, zero or negative prices are unknown (NaN), never cheapest. */
    private static double known(double price) {
        return price > 0 && Double.isFinite(price) ? price : Double.NaN;
    }

    private static byte groupOf(VmSize size) {
        // The family is the size name's family letters: ND and NC exactly (NCC, NDv... variants are other
        // families), E or M exactly (EC is confidential), F exactly (FX is a different, high-frequency family).
        return switch (size.family()) {
            case "ND" -> ND;
            case "NC" -> NC;
            case "E", "M" -> MEMORY_OPTIMIZED;
            case "F" -> COMPUTE_OPTIMIZED;
            default -> OTHER;
        };
    }

    private static double tflops(GpuModel model) {
        return model.tensorTflops() > 0 ? model.tensorTflops() : Double.NaN;
    }

    /** What the index keeps of a size, the same in every region that offers it. */
    private static final class SizeFacts {
        final String name;
        final byte group;
        final int gpuCount;
        final double gpuMemoryGib;
        final GpuVendor vendor;
        final boolean rdma;
        final int vcpus;
        final double memoryGib;
        final boolean excludedKind;
        final String retiredSeries;
        final double tflops;
        final int releaseYear;

        SizeFacts(VmSize size, Catalog catalog) {
            name = size.name();
            group = groupOf(size);
            Optional<GpuSpec> spec = size.gpu();
            gpuCount = spec.map(GpuSpec::count).orElse(0);
            gpuMemoryGib = spec.map(GpuSpec::memoryGib).orElse(0.0);
            vendor = spec.map(GpuSpec::vendor).orElse(GpuVendor.ANY);
            rdma = size.rdma();
            vcpus = usableVcpus(size);
            memoryGib = size.memoryGib();
            excludedKind = size.architecture() == Architecture.ARM64 || "B".equals(size.family())
                    || name.startsWith("Basic_");
            retiredSeries = catalog.retirement(name).map(RetiredSeries::series).orElse(null);
            Optional<GpuModel> model = spec.flatMap(s -> catalog.gpuModel(s.model()));
            tflops = model.map(CatalogIndex::tflops).orElse(Double.NaN);
            releaseYear = model.map(GpuModel::releaseYear).orElse(0);
        }
    }

    /** A constrained-vCPU size offers its constrained count even if the catalog lists the full one. */
    static int usableVcpus(VmSize size) {
        Matcher constrained = CONSTRAINED.matcher(size.name());
        if (constrained.matches()) {
            return Math.min(size.vcpus(), Integer.parseInt(constrained.group(1)));
        }
        return size.vcpus();
    }
}
