package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The importer over SkyPilot's real Azure CSV (a byte-identical copy in the test resources). */
class CatalogImporterTest {
    private static final String HEADER = String.join(",", CatalogImporter.SKYPILOT_COLUMNS) + "\n";
    private static final CatalogInfo INFO = new CatalogInfo("test", LocalDate.of(2026, 11, 29));
    private static Catalog catalog;

    @BeforeAll
    static void importRealCsv() {
        catalog = CatalogImporter.standard().importSkyPilot(new InputStreamReader(
                        CatalogImporterTest.class.getResourceAsStream("/catalog/skypilot-azure-vms.csv"),
                        StandardCharsets.UTF_8), "skypilot-azure-vms.csv", INFO, List.of("origin: test"));
    }

    private static List<CatalogEntry> rows(String size) {
        return catalog.entries().stream().filter(e -> e.size().name().equals(size)).collect(Collectors.toList());
    }

    private static CatalogEntry row(String size, String region) {
        return rows(size).stream().filter(e -> e.region().equals(region)).findFirst().orElseThrow();
    }

    @Test
    void sizeFactsWinOverTheCsvGpuCountOfNd96isrH100() {
        List<CatalogEntry> h100 = rows("Standard_ND96isr_H100_v5");
        assertFalse(h100.isEmpty());
        for (CatalogEntry entry : h100) {
            assertEquals(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA), entry.size().gpu().orElseThrow());
            assertTrue(entry.size().rdma());
            assertEquals("H100", entry.gpuModel().orElseThrow().name());
            assertEquals(989, entry.gpuModel().orElseThrow().tensorTflops());
        }
        assertTrue(catalog.provenance().stream().anyMatch(line -> line.startsWith("correction: GPU count")
                && line.contains("Standard_ND96isr_H100_v5: CSV 12 → 8")), catalog.provenanceText());
    }

    @Test
    void h100SpotPriceEqualToOnDemandIsUnknown() {
        for (String size : List.of("Standard_ND96isr_H100_v5", "Standard_NC40ads_H100_v5",
                "Standard_NC80adis_H100_v5")) {
            for (CatalogEntry entry : rows(size)) {
                assertTrue(entry.onDemandPerHour().isPresent(), size + "@" + entry.region());
                assertEquals(OptionalDouble.empty(), entry.spotPerHour(), size + "@" + entry.region());
            }
        }
        assertTrue(catalog.provenanceText().contains("spot price equal to or above the on-demand price"));
    }

    @Test
    void ncH100SizesAreH100NvlWith94GiB() {
        for (String size : List.of("Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5",
                "Standard_NCC40ads_H100_v5")) {
            CatalogEntry entry = rows(size).get(0);
            GpuSpec gpu = entry.size().gpu().orElseThrow();
            assertEquals("H100", gpu.model());
            assertEquals(94, gpu.memoryGib());
            assertEquals("H100-NVL", entry.gpuModel().orElseThrow().name());
            assertEquals(835, entry.gpuModel().orElseThrow().tensorTflops());
        }
        assertEquals(2, rows("Standard_NC80adis_H100_v5").get(0).size().gpuCount());
    }

    @Test
    void anH100OnAnNcSizeTheFactsTableDoesNotListIsStillTheNvl() {
        Catalog small = CatalogImporter.standard().importSkyPilot(new StringReader(HEADER
                + "Standard_NC160adis_H100_v6,H100,4,160.0,1280,H100,27.9,,eastus,V2\n"
                + "Standard_ND48isr_H100_v6,H100,4,48.0,950,H100,49.1,,eastus,V2\n"), "new.csv", INFO, List.of());
        assertEquals(new GpuSpec("H100", 4, 94, GpuVendor.NVIDIA), small.entries().get(0).size().gpu().orElseThrow());
        assertEquals("H100-NVL", small.entries().get(0).gpuModel().orElseThrow().name());
        assertEquals(new GpuSpec("H100", 4, 80, GpuVendor.NVIDIA), small.entries().get(1).size().gpu().orElseThrow());
        assertEquals("H100", small.entries().get(1).gpuModel().orElseThrow().name());
    }

    @Test
    void sizesWithoutAcceleratorNameTakeItFromTheFactsTable() {
        assertEquals("A10", rows("Standard_NC8ads_A10_v4").get(0).size().gpu().orElseThrow().model());
        assertEquals(8, rows("Standard_NC8ads_A10_v4").get(0).size().gpu().orElseThrow().memoryGib());
        assertEquals("A10", rows("Standard_NC32ads_A10_v4").get(0).size().gpu().orElseThrow().model());
        GpuSpec v620 = rows("Standard_NG32ads_V620_v1").get(0).size().gpu().orElseThrow();
        assertEquals(GpuVendor.AMD, v620.vendor());
        assertEquals("V620", v620.model());
        assertEquals("H100", rows("Standard_NCC40ads_H100_v5").get(0).size().gpu().orElseThrow().model());
        assertEquals(new GpuSpec("V100-32GB", 8, 32, GpuVendor.NVIDIA),
                rows("Standard_ND40s_v3").get(0).size().gpu().orElseThrow());
        assertTrue(catalog.provenanceText().contains("Standard_NC8ads_A10_v4 → A10"));
    }

    @Test
    void sizesTheCsvLacksArePresentWithUnknownPricesInTheNdH100Regions() {
        Set<String> h100Regions = rows("Standard_ND96isr_H100_v5").stream().map(CatalogEntry::region)
                .collect(Collectors.toCollection(TreeSet::new));
        for (String size : List.of("Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5")) {
            List<CatalogEntry> entries = rows(size);
            assertEquals(h100Regions, entries.stream().map(CatalogEntry::region)
                    .collect(Collectors.toCollection(TreeSet::new)), size);
            for (CatalogEntry entry : entries) {
                assertEquals(OptionalDouble.empty(), entry.onDemandPerHour());
                assertEquals(OptionalDouble.empty(), entry.spotPerHour());
                assertEquals(96, entry.size().vcpus());
                assertEquals(8, entry.size().gpuCount());
                assertTrue(entry.size().rdma());
                assertEquals(Set.of("V2"), entry.size().hyperVGenerations());
            }
        }
        assertEquals(new GpuSpec("H200", 8, 141, GpuVendor.NVIDIA),
                rows("Standard_ND96isr_H200_v5").get(0).size().gpu().orElseThrow());
        assertEquals(new GpuSpec("MI300X", 8, 192, GpuVendor.AMD),
                rows("Standard_ND96isr_MI300X_v5").get(0).size().gpu().orElseThrow());
    }

    @Test
    void rowsWithEmptyPricesKeepThemUnknown() {
        CatalogEntry a10 = row("Standard_NC8ads_A10_v4", "eastus");
        assertEquals(OptionalDouble.empty(), a10.onDemandPerHour());
        assertEquals(OptionalDouble.empty(), a10.spotPerHour());
        long unknownOnDemand = catalog.entries().stream().filter(e -> e.onDemandPerHour().isEmpty()).count();
        // 66 CSV rows have no price, plus the 6 rows added for H200 and MI300X.
        assertEquals(66 + 6, unknownOnDemand);
    }

    @Test
    void zeroPricesAreUnknownAndSpotAboveOnDemandIsUnknown() {
        Catalog small = CatalogImporter.standard().importSkyPilot(new StringReader(HEADER
                + "Standard_D2s_v5,,,2.0,8,,0.0,0.0,eastus,\"V1,V2\"\n"
                + "Standard_D4s_v5,,,4.0,16,,0.192,0.25,eastus,\"V1,V2\"\n"
                + "Standard_D8s_v5,,,8.0,32,,0.384,0.0384,eastus,\"V1,V2\"\n"), "small.csv", INFO, List.of());
        assertEquals(OptionalDouble.empty(), small.entries().get(0).onDemandPerHour());
        assertEquals(OptionalDouble.empty(), small.entries().get(0).spotPerHour());
        assertEquals(OptionalDouble.of(0.192), small.entries().get(1).onDemandPerHour());
        assertEquals(OptionalDouble.empty(), small.entries().get(1).spotPerHour());
        assertEquals(OptionalDouble.of(0.0384), small.entries().get(2).spotPerHour());
        assertTrue(small.provenanceText().contains("Price of zero treated as unknown (1): Standard_D2s_v5"),
                small.provenanceText());
    }

    @Test
    void constrainedVcpuSizesCountTheirConstrainedVcpus() {
        assertEquals(16, rows("Standard_E32-16as_v5").get(0).size().vcpus());
        assertEquals(2, rows("Standard_E8-2ads_v5").get(0).size().vcpus());
        assertEquals(16, rows("Standard_HB120-16rs_v3").get(0).size().vcpus());
        assertEquals(120, rows("Standard_HB120rs_v3").get(0).size().vcpus());
    }

    @Test
    void buildsFullVmSizes() {
        CatalogEntry arm = rows("Standard_D2pls_v5").get(0);
        assertEquals(Architecture.ARM64, arm.size().architecture());
        assertEquals("D", arm.size().family());
        CatalogEntry a100 = rows("Standard_NC24ads_A100_v4").get(0);
        assertEquals("NC", a100.size().family());
        assertEquals(new GpuSpec("A100-80GB", 1, 80, GpuVendor.NVIDIA), a100.size().gpu().orElseThrow());
        assertEquals(Set.of("V2"), a100.size().hyperVGenerations());
        assertEquals(Architecture.X64, a100.size().architecture());
        assertEquals(new GpuSpec("A100", 8, 40, GpuVendor.NVIDIA),
                rows("Standard_ND96asr_v4").get(0).size().gpu().orElseThrow());
        assertEquals(Set.of("V1", "V2"), rows("Standard_NC4as_T4_v3").get(0).size().hyperVGenerations());
        assertEquals(16, rows("Standard_NC4as_T4_v3").get(0).size().gpu().orElseThrow().memoryGib());
        assertEquals(12, rows("Standard_NC6").get(0).size().gpu().orElseThrow().memoryGib());
        assertTrue(rows("Standard_HB120rs_v3").get(0).size().rdma());
        assertFalse(rows("Standard_NC24ads_A100_v4").get(0).size().rdma());
        assertEquals(9, catalog.regions().size());
        assertEquals(5969 + 6, catalog.entries().size());
    }

    @Test
    void retiredSeriesAreNamedWithTheirSource() {
        assertEquals("NCv3", catalog.retirement("Standard_NC24rs_v3").orElseThrow().series());
        assertEquals("NC (v1)", catalog.retirement("Standard_NC6_Promo").orElseThrow().series());
        assertEquals("NDv2", catalog.retirement("Standard_ND40rs_v2").orElseThrow().series());
        assertEquals("NV (v1)", catalog.retirement("Standard_NV6").orElseThrow().series());
        assertTrue(catalog.retirement("Standard_NC4as_T4_v3").isEmpty());
        assertTrue(catalog.retirement("Standard_NV12s_v3").isEmpty());
        assertTrue(catalog.retirement("Standard_ND40s_v3").isEmpty());
        assertTrue(catalog.retirement("Standard_ND96isr_H100_v5").isEmpty());
        assertEquals(Set.of("NC (v1)", "NCv2", "NCv3", "ND (v1)", "NDv2", "NV (v1)"), catalog.retiredSeries()
                .stream().map(RetiredSeries::series).collect(Collectors.toSet()));
        catalog.retiredSeries().forEach(series -> assertTrue(series.source().startsWith("https://learn.microsoft.com/")));
    }

    @Test
    void badRowsNameFileLineAndColumn() {
        GantryException error = assertThrows(GantryException.class, () -> CatalogImporter.standard().importSkyPilot(
                new StringReader(HEADER + "Standard_D2s_v5,,,2.0,8,,0.096,0.0096,eastus,\"V1,V2\"\n"
                        + "Standard_D4s_v5,,,four,16,,0.192,0.0192,eastus,\"V1,V2\"\n"
                        + "Standard_D8s_v5,,,8.0,32,,0.384,0.0384,eastus,V3\n"), "bad.csv", INFO, List.of()));
        assertEquals(ErrorCode.CATALOG_INVALID, error.code());
        assertEquals(List.of(
                        "bad.csv:3:19: vCPUs: is 'four'; expected a number such as 1.5",
                        "bad.csv:4:47: Generation: is 'V3'; expected V1, V2 or \"V1,V2\""),
                error.problems().stream().map(Object::toString).collect(Collectors.toList()),
                "every bad row is reported, each with file, line, column and the column's name");
        assertEquals("bad.csv:3:19: vCPUs: is 'four'; expected a number such as 1.5\n"
                + "bad.csv:4:47: Generation: is 'V3'; expected V1, V2 or \"V1,V2\"", error.getMessage());

        GantryException unknownGpu = assertThrows(GantryException.class, () -> CatalogImporter.standard()
                .importSkyPilot(new StringReader(HEADER + "Standard_NC8as_X9_v3,X9,1,8.0,56,X9,0.7,0.2,eastus,V2\n"),
                        "gpu.csv", INFO, List.of()));
        assertTrue(unknownGpu.getMessage().startsWith("gpu.csv:2:22: AcceleratorName: is 'X9', a GPU model"),
                unknownGpu.getMessage());

        GantryException header = assertThrows(GantryException.class, () -> CatalogImporter.standard()
                .importSkyPilot(new StringReader("InstanceType,Region\nStandard_D2s_v5,eastus\n"), "h.csv", INFO,
                        List.of()));
        assertTrue(header.getMessage().startsWith("h.csv:1: header lacks column(s) [AcceleratorName"),
                header.getMessage());

        GantryException badName = assertThrows(GantryException.class, () -> CatalogImporter.standard()
                .importSkyPilot(new StringReader(HEADER + "D2s_v5,,,2.0,8,,0.096,0.0096,eastus,V2\n"), "n.csv",
                        INFO, List.of()));
        assertTrue(badName.getMessage().startsWith("n.csv:2:1: InstanceType: is 'D2s_v5'"),
                badName.getMessage());
    }
}
