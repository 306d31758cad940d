package dev.gantry.core.advisor;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.GpuModel;
import dev.gantry.core.catalog.RetiredSeries;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/** Small synthetic catalogs, built row by row so that each rule test can see exactly what it chooses from. */
final class TestCatalogs {
    static final LocalDate DATE = LocalDate.of(2026, 11, 1);
    static final double NONE = Double.NaN;

    static final Map<String, GpuModel> GPUS = Map.of(
            "H100", new GpuModel("H100", GpuVendor.NVIDIA, 80, 989, 2022),
            "MI300X", new GpuModel("MI300X", GpuVendor.AMD, 192, 1307, 2023),
            "A100-80GB", new GpuModel("A100-80GB", GpuVendor.NVIDIA, 80, 312, 2020),
            "A100", new GpuModel("A100", GpuVendor.NVIDIA, 40, 312, 2020),
            "A10", new GpuModel("A10", GpuVendor.NVIDIA, 24, 125, 2021),
            "T4", new GpuModel("T4", GpuVendor.NVIDIA, 16, 65, 2018),
            "V100", new GpuModel("V100", GpuVendor.NVIDIA, 16, 125, 2017),
            "V100-32GB", new GpuModel("V100-32GB", GpuVendor.NVIDIA, 32, 125, 2018));

    static final List<RetiredSeries> RETIRED = List.of(
            new RetiredSeries("NCv3", "Standard_NC\\d+r?s_v3", "test"),
            new RetiredSeries("NDv2", "Standard_ND\\d+r?s_v2", "test"));

    private final List<CatalogEntry> entries = new ArrayList<>();

    static TestCatalogs builder() {
        return new TestCatalogs();
    }

    static VmSize gpu(String name, String family, int vcpus, double memory, String model, int count,
                      boolean rdma) {
        GpuModel facts = GPUS.get(model);
        return new VmSize(name, family, vcpus, memory,
                Optional.of(new GpuSpec(model, count, facts.memoryGib(), facts.vendor())), rdma, Architecture.X64,
                Set.of("V2"));
    }

    static VmSize cpu(String name, String family, int vcpus, double memory) {
        return new VmSize(name, family, vcpus, memory, Optional.empty(), false,
                name.contains("ps_") || name.contains("pds_") ? Architecture.ARM64 : Architecture.X64,
                Set.of("V1", "V2"));
    }

    TestCatalogs add(VmSize size, String region, double onDemand, double spot) {
        return add(size, region, onDemand, spot, null);
    }

    TestCatalogs add(VmSize size, String region, double onDemand, double spot, String restriction) {
        Optional<GpuModel> model = size.gpu().map(g -> GPUS.get(g.model()));
        entries.add(new CatalogEntry(size, region, price(onDemand), price(spot), model,
                Optional.ofNullable(restriction)));
        return this;
    }

    Catalog build() {
        return new Catalog(entries, new CatalogInfo("test catalog", DATE), GPUS, RETIRED);
    }

    private static OptionalDouble price(double value) {
        return Double.isNaN(value) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    // The sizes the rule tests share.
    static final VmSize ND_A100_80 = gpu("Standard_ND96amsr_A100_v4", "ND", 96, 1900, "A100-80GB", 8, true);
    static final VmSize ND_H100 = gpu("Standard_ND96isr_H100_v5", "ND", 96, 1900, "H100", 8, true);
    static final VmSize ND_MI300X = gpu("Standard_ND96isr_MI300X_v5", "ND", 96, 1850, "MI300X", 8, true);
    static final VmSize ND_V100 = gpu("Standard_ND40s_v3", "ND", 40, 672, "V100-32GB", 8, false);
    static final VmSize ND_RETIRED = gpu("Standard_ND40rs_v2", "ND", 40, 672, "V100-32GB", 8, true);
    static final VmSize NC_A100_1 = gpu("Standard_NC24ads_A100_v4", "NC", 24, 220, "A100-80GB", 1, false);
    static final VmSize NC_A100_2 = gpu("Standard_NC48ads_A100_v4", "NC", 48, 440, "A100-80GB", 2, false);
    static final VmSize NC_A100_4 = gpu("Standard_NC96ads_A100_v4", "NC", 96, 880, "A100-80GB", 4, false);
    static final VmSize NC_T4 = gpu("Standard_NC4as_T4_v3", "NC", 4, 28, "T4", 1, false);
    static final VmSize NC_RETIRED = gpu("Standard_NC6s_v3", "NC", 6, 112, "V100", 1, false);
    static final VmSize NC_A10 = gpu("Standard_NC8ads_A10_v4", "NC", 8, 100, "A10", 1, false);
    static final VmSize NV_A10 = gpu("Standard_NV36ads_A10_v5", "NV", 36, 440, "A10", 1, false);
    static final VmSize E2 = cpu("Standard_E2as_v5", "E", 2, 16);
    static final VmSize E4 = cpu("Standard_E4as_v5", "E", 4, 32);
    static final VmSize E2_ARM = cpu("Standard_E2ps_v5", "E", 2, 16);
    static final VmSize EC2 = cpu("Standard_EC2as_v5", "EC", 2, 16);
    static final VmSize M8 = cpu("Standard_M8ms", "M", 8, 218.75);
    static final VmSize E32_16 = cpu("Standard_E32-16as_v5", "E", 32, 256);
    static final VmSize B2 = cpu("Standard_B2ms", "B", 2, 8);
    static final VmSize F2 = cpu("Standard_F2s_v2", "F", 2, 4);
    static final VmSize F4 = cpu("Standard_F4s_v2", "F", 4, 8);
    static final VmSize FX4 = cpu("Standard_FX4mds", "FX", 4, 84);
    static final VmSize D2 = cpu("Standard_D2s_v5", "D", 2, 8);

    /** A small world with every kind of row the rules distinguish. */
    static Catalog world() {
        return builder()
                .add(ND_A100_80, "eastus", 32.77, 3.6)
                .add(ND_A100_80, "westus2", 32.77, 3.7)
                .add(ND_H100, "eastus", 98.32, NONE)
                .add(ND_MI300X, "eastus", 60, NONE)
                .add(ND_V100, "eastus", 20, 2.0)
                .add(ND_RETIRED, "eastus", 5, 0.5)
                .add(NC_A100_1, "eastus", 3.673, 0.444)
                .add(NC_A100_1, "westus2", 3.673, 0.5)
                .add(NC_A100_1, "westus3", 1.0, 0.1, "NotAvailableForSubscription")
                .add(NC_A100_2, "eastus", 7.346, 0.888)
                .add(NC_A100_4, "eastus", 14.692, 1.777)
                .add(NC_T4, "eastus", 0.526, 0.0627)
                .add(NC_RETIRED, "eastus", 0.3, 0.03)
                .add(NC_A10, "eastus", NONE, NONE)
                .add(NV_A10, "eastus", 0.2, 0.02)
                .add(E2, "eastus", 0.126, 0.02)
                .add(E2, "westus2", 0.126, 0.021)
                .add(E4, "eastus", 0.252, 0.04)
                .add(E2_ARM, "eastus", 0.1, 0.01)
                .add(EC2, "eastus", 0.05, 0.005)
                .add(M8, "eastus", 2.0, 0.3)
                .add(E32_16, "eastus", 1.808, 0.2)
                .add(B2, "eastus", 0.08, 0.01)
                .add(F2, "eastus", 0.085, 0.01)
                .add(F4, "eastus", 0.169, 0.02)
                .add(FX4, "eastus", 0.05, 0.005)
                .add(D2, "eastus", 0.05, 0.005)
                .build();
    }

    private TestCatalogs() {
    }
}
