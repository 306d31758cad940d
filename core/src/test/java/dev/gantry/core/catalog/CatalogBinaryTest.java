package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.VmSize;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compact form of the catalog holds exactly what the CSV holds, and damage to it is named, not misread. */
class CatalogBinaryTest {
    private static final String BROKEN = "/catalog/broken-compact-snapshot.bin";

    @Test
    void theBuildMadeTheCompactSnapshotInTargetClasses() {
        URL url = CatalogLoader.class.getResource(CatalogLoader.COMPACT_SNAPSHOT_RESOURCE);
        assertNotNull(url, CatalogLoader.COMPACT_SNAPSHOT_RESOURCE + " is not on the class path: the build step"
                + " compact-catalog-snapshot (exec-maven-plugin in core/pom.xml, phase process-classes) did not run");
        assertTrue(url.toString().endsWith("target/classes/dev/gantry/catalog/azure-snapshot.bin"),
                "expected core's build output, got " + url);
    }

    @Test
    void compactSnapshotIsTheCatalogTheCsvGives() {
        Catalog csv = CatalogLoader.loadEmbeddedCsvUncached();
        // Strict: a damaged or stale compact file fails here instead of being replaced by the CSV without a word.
        Catalog compact = CatalogLoader.loadEmbedded(CatalogLoader.COMPACT_SNAPSHOT_RESOURCE,
                "/nonexistent-fallback.csv", true);
        assertEquals(Optional.empty(), CatalogBinary.firstDifference(csv, compact));
        assertEquals(5975, compact.entries().size());
        assertEquals(csv.entries(), compact.entries());
        assertEquals(csv.info(), compact.info());
        assertEquals(csv.provenance(), compact.provenance());
        assertEquals(csv.gpuModels(), compact.gpuModels());
        assertEquals(csv.retiredSeries(), compact.retiredSeries());
        assertEquals(csv.regions(), compact.regions());
        assertEquals(844, compact.entries().stream().map(CatalogEntry::size).distinct().count());
        assertTrue(compact.retirement("Standard_NC6s_v3").isPresent(), "NCv3 is retired");
    }

    @Test
    void productionLoadReadsTheCompactForm() {
        // The compact form is found and read: its strict reading succeeds, and what the shared loader gives is it.
        Catalog loaded = CatalogLoader.loadEmbeddedUncached();
        Catalog compact = CatalogLoader.loadEmbedded(CatalogLoader.COMPACT_SNAPSHOT_RESOURCE,
                "/nonexistent-fallback.csv", true);
        assertEquals(Optional.empty(), CatalogBinary.firstDifference(compact, loaded));
    }

    @Test
    void firstDifferenceNamesWhatDiffers() {
        Catalog catalog = oddCatalog();
        List<CatalogEntry> entries = new ArrayList<>(catalog.entries());
        CatalogEntry second = entries.get(1);
        entries.set(1, new CatalogEntry(second.size(), second.region(), OptionalDouble.of(9.99),
                second.spotPerHour(), second.gpuModel(), second.restriction()));
        Catalog changed = new Catalog(entries, catalog.info(), catalog.gpuModels(), catalog.retiredSeries(),
                catalog.provenance());
        String difference = CatalogBinary.firstDifference(catalog, changed).orElseThrow();
        assertTrue(difference.startsWith("entry 1: "), difference);
        assertTrue(difference.contains("9.99"), difference);
        Catalog shorter = new Catalog(catalog.entries().subList(0, 2), catalog.info(), catalog.gpuModels(),
                catalog.retiredSeries(), catalog.provenance());
        assertEquals(Optional.of("entries: expected 3, got 2"), CatalogBinary.firstDifference(catalog, shorter));
        Catalog redated = new Catalog(catalog.entries(), CatalogInfo.copied("other", LocalDate.of(2026, 1, 1)),
                catalog.gpuModels(), catalog.retiredSeries(), catalog.provenance());
        assertTrue(CatalogBinary.firstDifference(catalog, redated).orElseThrow().startsWith("info: "));
    }

    @Test
    void oddValuesSurviveTheRoundTrip() {
        Catalog catalog = oddCatalog();
        Catalog back = CatalogBinary.read(new ByteArrayInputStream(bytes(catalog)), "test.bin");
        assertEquals(Optional.empty(), CatalogBinary.firstDifference(catalog, back));
        assertEquals(catalog.entries(), back.entries());
        CatalogEntry arm = back.entries().get(1);
        assertEquals(Architecture.ARM64, arm.size().architecture());
        assertFalse(arm.size().hasGpu());
        assertTrue(arm.onDemandPerHour().isEmpty() && arm.spotPerHour().isEmpty(), arm.toString());
        assertEquals(Optional.of("NotAvailableForSubscription, zones 1,2"), arm.restriction());
        assertEquals(Set.of("V1"), arm.size().hyperVGenerations());
        CatalogEntry amd = back.entries().get(2);
        assertEquals(GpuVendor.AMD, amd.size().gpu().orElseThrow().vendor());
        assertEquals(Optional.of("MI-test"), amd.gpuModel().map(GpuModel::name), "a model outside the GPU table");
        assertEquals(OptionalDouble.of(0.1 + 0.2), back.entries().get(0).onDemandPerHour(), "doubles kept exactly");
        assertEquals("café – 東京 😀, \"quoted\"", back.provenance().get(0));
        assertEquals(Optional.of(List.of("1", "3")), back.entries().get(0).zones());
        assertEquals(Optional.of(List.of()), arm.zones(), "no zone is recorded as such");
        assertEquals(Optional.empty(), amd.zones(), "not recorded stays not recorded");
        assertEquals(Optional.empty(), back.info().priceDate());

        Catalog priced = new Catalog(catalog.entries(), new CatalogInfo("live", LocalDate.of(2026, 12, 1)),
                Map.of(), List.of(), List.of());
        Catalog pricedBack = CatalogBinary.read(new ByteArrayInputStream(bytes(priced)), "test.bin");
        assertEquals(Optional.of(LocalDate.of(2026, 12, 1)), pricedBack.info().priceDate());
        assertEquals(Optional.empty(), CatalogBinary.firstDifference(priced, pricedBack));
    }

    @Test
    void writingIsDeterministic() {
        assertTrue(Arrays.equals(bytes(oddCatalog()), bytes(oddCatalog())));
    }

    @Test
    void everyTruncationIsNamedAsSuch() {
        byte[] whole = bytes(oddCatalog());
        for (int length = 0; length < whole.length; length++) {
            byte[] cut = Arrays.copyOf(whole, length);
            GantryException e = assertThrows(GantryException.class,
                    () -> CatalogBinary.read(new ByteArrayInputStream(cut), "embedded:cut.bin"), "length " + length);
            assertEquals(ErrorCode.CATALOG_INVALID, e.code());
            assertTrue(e.getMessage().startsWith("embedded:cut.bin is truncated: it ends inside "), e.getMessage());
            assertTrue(e.getMessage().contains("rebuild core"), e.getMessage());
        }
    }

    @Test
    void wrongMagicWrongVersionAndTrailingBytesAreRefused() {
        byte[] whole = bytes(oddCatalog());
        byte[] magic = whole.clone();
        magic[0] = 'X';
        GantryException e = assertThrows(GantryException.class,
                () -> CatalogBinary.read(new ByteArrayInputStream(magic), "embedded:azure-snapshot.bin"));
        assertEquals(ErrorCode.CATALOG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("embedded:azure-snapshot.bin is not a compact Gantry catalog"),
                e.getMessage());

        byte[] version = whole.clone();
        ByteBuffer.wrap(version).putInt(4, CatalogBinary.VERSION + 1);
        e = assertThrows(GantryException.class,
                () -> CatalogBinary.read(new ByteArrayInputStream(version), "embedded:azure-snapshot.bin"));
        assertTrue(e.getMessage().contains("format version " + (CatalogBinary.VERSION + 1) + "; this Gantry reads"
                + " versions 1 and " + CatalogBinary.VERSION), e.getMessage());

        byte[] longer = Arrays.copyOf(whole, whole.length + 1);
        e = assertThrows(GantryException.class,
                () -> CatalogBinary.read(new ByteArrayInputStream(longer), "x.bin"));
        assertTrue(e.getMessage().startsWith("x.bin does not end where its entries end"), e.getMessage());
    }

    @Test
    void aDamagedIndexIsNamedNotFollowed() {
        Catalog catalog = oddCatalog();
        byte[] whole = bytes(catalog);
        // The last entry's zones index is the int before the end marker.
        byte[] damaged = whole.clone();
        ByteBuffer.wrap(damaged).putInt(whole.length - 8, 1_000_000);
        GantryException e = assertThrows(GantryException.class,
                () -> CatalogBinary.read(new ByteArrayInputStream(damaged), "x.bin"));
        assertEquals(ErrorCode.CATALOG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("x.bin refers to string 1000000 of "), e.getMessage());
    }

    @Test
    void aVersionOneFileReadsWithItsZonesNotRecorded() throws IOException {
        // Written by CatalogBinary version 1, before entries recorded zones; kept as it was written.
        Catalog old;
        try (InputStream in = getClass().getResourceAsStream("/catalog/compact-catalog-v1.bin")) {
            assertNotNull(in, "the fixture compact-catalog-v1.bin");
            old = CatalogBinary.read(in, "compact-catalog-v1.bin");
        }
        assertEquals("compact catalog version 1", old.info().source());
        assertEquals(List.of("origin: written by CatalogBinary version 1"), old.provenance());
        assertEquals(2, old.entries().size());
        CatalogEntry h100 = old.entries().get(0);
        assertEquals("Standard_ND96isr_H100_v5", h100.size().name());
        assertEquals(OptionalDouble.of(98.32), h100.onDemandPerHour());
        assertEquals(Optional.of("NotAvailableForSubscription"), old.entries().get(1).restriction());
        assertTrue(old.entries().stream().allMatch(entry -> entry.zones().isEmpty()),
                "version 1 records no zones: not recorded, never 'no zone'");
        assertFalse(old.recordsZones());

        // Written again, it is the current version and reads back the same.
        Catalog again = CatalogBinary.read(new ByteArrayInputStream(bytes(old)), "again.bin");
        assertEquals(CatalogBinary.VERSION, ByteBuffer.wrap(bytes(old)).getInt(4));
        assertEquals(Optional.empty(), CatalogBinary.firstDifference(old, again));
    }

    @Test
    void aBrokenCompactFileFailsStrictlyAndFallsBackToTheCsvOtherwise() throws IOException {
        GantryException e = assertThrows(GantryException.class,
                () -> CatalogLoader.loadEmbedded(BROKEN, CatalogLoader.SNAPSHOT_RESOURCE, true));
        assertEquals(ErrorCode.CATALOG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("embedded:broken-compact-snapshot.bin is not a compact Gantry catalog"),
                e.getMessage());
        try (InputStream in = getClass().getResourceAsStream(BROKEN)) {
            assertNotNull(in, "the fixture " + BROKEN);
        }
        Catalog fallback = CatalogLoader.loadEmbedded(BROKEN, CatalogLoader.SNAPSHOT_RESOURCE, false);
        assertEquals(Optional.empty(),
                CatalogBinary.firstDifference(CatalogLoader.loadEmbeddedCsvUncached(), fallback));
        Catalog missing = CatalogLoader.loadEmbedded("/no-such-compact.bin", CatalogLoader.SNAPSHOT_RESOURCE, true);
        assertEquals(5975, missing.entries().size(), "no compact form: the CSV");
    }

    @Test
    void compactSnapshotWritesTheFileTheLoaderReadsAndLeavesNothingElse(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("azure-snapshot.csv");
        try (InputStream in = getClass().getResourceAsStream(CatalogLoader.SNAPSHOT_RESOURCE)) {
            Files.copy(in, csv);
        }
        Path bin = dir.resolve("azure-snapshot.bin");
        CompactSnapshot.main(new String[] {csv.toString(), bin.toString()});
        try (InputStream in = Files.newInputStream(bin)) {
            assertEquals(Optional.empty(), CatalogBinary.firstDifference(CatalogLoader.loadEmbeddedCsvUncached(),
                    CatalogBinary.read(in, bin.toString())));
        }
        try (var files = Files.list(dir)) {
            assertEquals(Set.of("azure-snapshot.csv", "azure-snapshot.bin"),
                    files.map(file -> file.getFileName().toString()).collect(Collectors.toSet()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompactSnapshot.main(new String[] {csv.toString()}));
        assertEquals("usage: CompactSnapshot SNAPSHOT_CSV OUTPUT_BIN", e.getMessage());
    }

    /**
     * Three entries: an NVIDIA GPU size in zones 1 and 3, an arm64 CPU size with nothing known but that it has no
     * zone, an AMD size outside the table whose zones are not recorded.
     */
    private static Catalog oddCatalog() {
        GpuModel h100 = new GpuModel("H100", GpuVendor.NVIDIA, 80, 989, 2022);
        GpuModel other = new GpuModel("MI-test", GpuVendor.AMD, 192.5, 1307.25, 2023);
        VmSize gpu = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900, Optional.of(new GpuSpec("H100", 8, 80,
                GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
        VmSize arm = new VmSize("Standard_D4ps_v5", "D", 4, 16, Optional.empty(), false, Architecture.ARM64,
                Set.of("V1"));
        VmSize amd = new VmSize("Standard_ND96isr_MI300X_v5", "ND", 96, 1850.5, Optional.of(new GpuSpec("MI300X", 8,
                192, GpuVendor.AMD)), true, Architecture.X64, Set.of("V1", "V2"));
        List<CatalogEntry> entries = List.of(
                new CatalogEntry(gpu, "eastus", OptionalDouble.of(0.1 + 0.2), OptionalDouble.of(1e-9),
                        Optional.of(h100), Optional.empty(), Optional.of(List.of("1", "3"))),
                new CatalogEntry(arm, "westeurope", OptionalDouble.empty(), OptionalDouble.empty(), Optional.empty(),
                        Optional.of("NotAvailableForSubscription, zones 1,2"), Optional.of(List.of())),
                new CatalogEntry(amd, "eastus", OptionalDouble.of(Double.MAX_VALUE), OptionalDouble.empty(),
                        Optional.of(other), Optional.of("")));
        return new Catalog(entries, CatalogInfo.copied("test, with a comma", LocalDate.of(2026, 11, 29)),
                Map.of("H100", h100, "alias", h100),
                List.of(new RetiredSeries("NCv3", "Standard_NC\\d+r?s_v3", "https://example.test/retired")),
                List.of("café – 東京 😀, \"quoted\"", ""));
    }

    private static byte[] bytes(Catalog catalog) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CatalogBinary.write(catalog, out);
        return out.toByteArray();
    }
}
