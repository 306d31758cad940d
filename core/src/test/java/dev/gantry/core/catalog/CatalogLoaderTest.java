package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogLoaderTest {
    @TempDir
    Path dir;

    private Path fixtureCsv() throws IOException {
        Path csv = dir.resolve("vms.csv");
        try (InputStream in = getClass().getResourceAsStream("/catalog/skypilot-azure-vms.csv")) {
            Files.copy(in, csv, StandardCopyOption.REPLACE_EXISTING);
        }
        return csv;
    }

    @Test
    void committedSnapshotIsWhatTheImporterWritesFromTheSourceCsv() throws IOException {
        Catalog imported = SnapshotImporter.importSnapshot(fixtureCsv(), "098741e70562f65d7af1cceb81e33b284f742604",
                LocalDate.of(2026, 11, 29));
        StringWriter written = new StringWriter();
        CatalogFormat.write(imported, written);
        String committed;
        try (InputStream in = getClass().getResourceAsStream(CatalogLoader.SNAPSHOT_RESOURCE)) {
            committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(committed, written.toString(),
                "regenerate the snapshot with SnapshotImporter (see docs/catalog.md)");
    }

    @Test
    void embeddedSnapshotCarriesProvenanceAndIsShared() {
        Catalog catalog = CatalogLoader.embedded();
        assertSame(catalog, CatalogLoader.embedded());
        assertEquals(LocalDate.of(2026, 11, 29), catalog.info().date());
        assertEquals(Optional.empty(), catalog.info().priceDate(), "the source gives no price date");
        assertTrue(catalog.info().source().startsWith("SkyPilot Azure catalog"), catalog.info().source());
        assertTrue(catalog.provenance().contains("origin-commit: 098741e70562f65d7af1cceb81e33b284f742604"));
        assertTrue(catalog.provenance().stream().anyMatch(line -> line.startsWith("correction: GPU count")));
        assertEquals(5975, catalog.entries().size());
        CatalogEntry h100 = catalog.entries().stream()
                .filter(e -> e.size().name().equals("Standard_ND96isr_H100_v5")).findFirst().orElseThrow();
        assertEquals(8, h100.size().gpuCount());
        assertTrue(h100.spotPerHour().isEmpty());
        assertEquals(Optional.of("H100"), h100.gpuModel().map(GpuModel::name));
    }

    @Test
    void embeddedSnapshotLoadsQuickly() {
        long start = System.nanoTime();
        Catalog fresh = CatalogFormat.read(new java.io.InputStreamReader(
                getClass().getResourceAsStream(CatalogLoader.SNAPSHOT_RESOURCE), StandardCharsets.UTF_8), "snapshot");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(5975, fresh.entries().size());
        // Generous bound for a cold JVM on a shared machine; typical warm loads take a few tens of milliseconds.
        assertTrue(millis < 3000, "loading the snapshot took " + millis + " ms");
    }

    @Test
    void ageIsCountedInWholeDaysFromTheCopyDate() {
        Catalog catalog = CatalogLoader.embedded();
        assertEquals(0, catalog.ageDays(Clock.fixed(Instant.parse("2026-11-29T23:00:00Z"), ZoneOffset.UTC)));
        assertEquals(31, catalog.ageDays(Clock.fixed(Instant.parse("2026-12-30T01:00:00Z"), ZoneOffset.UTC)));
        assertEquals(0, catalog.ageDays(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)));
    }

    @Test
    void fromFileReadsSkyPilotCsvWithTheSameCorrectionsDatedByModificationTime() throws IOException {
        Path csv = fixtureCsv();
        Files.setLastModifiedTime(csv, FileTime.from(Instant.parse("2026-10-01T12:00:00Z")));
        Catalog catalog = CatalogLoader.fromFile(csv);
        assertEquals(CatalogInfo.copied("SkyPilot Azure CSV vms.csv", LocalDate.of(2026, 10, 1)), catalog.info());
        assertEquals(Optional.empty(), catalog.info().priceDate(), "the SkyPilot format carries no price date");
        assertEquals(CatalogLoader.embedded().entries(), catalog.entries());
        assertFalse(catalog.recordsZones(), "SkyPilot's public price data has no zones; neither has the snapshot");
        assertFalse(CatalogLoader.embedded().recordsZones());
    }

    @Test
    void fromFileReadsTheProjectsOwnFormat() throws IOException {
        Path file = dir.resolve("mine.csv");
        Files.writeString(file, CatalogFormat.MAGIC + "\n# source: my prices\n# date: 2026-11-01\n# note: hand-made\n"
                + String.join(",", CatalogFormat.COLUMNS) + "\n"
                + "Standard_NC24ads_A100_v4,eastus,A100-80GB,,1,,,24,220,false,x64,V2,3.67,0,\n"
                + "Standard_D2pls_v5,westus2,,,,,,2,4,false,,V1 V2,0.05,0.01,NotAvailableForSubscription\n");
        Catalog catalog = CatalogLoader.fromFile(file);
        assertEquals(new CatalogInfo("my prices", LocalDate.of(2026, 11, 1)), catalog.info());
        assertEquals(List.of("note: hand-made"), catalog.provenance());
        CatalogEntry a100 = catalog.entries().get(0);
        assertEquals(80, a100.size().gpu().orElseThrow().memoryGib());
        assertTrue(a100.spotPerHour().isEmpty(), "a zero spot price is unknown");
        CatalogEntry arm = catalog.entries().get(1);
        assertEquals(dev.gantry.api.Architecture.ARM64, arm.size().architecture());
        assertEquals(Optional.of("NotAvailableForSubscription"), arm.restriction());
        assertEquals(Optional.empty(), a100.zones(), "a file without the zones column records none: not 'no zone'");
        assertFalse(catalog.recordsZones());
    }

    @Test
    void theZonesColumnRecordsZonesNoZoneOrNothingPerRowAndRoundTrips() throws IOException {
        Path file = dir.resolve("zoned.csv");
        Files.writeString(file, CatalogFormat.MAGIC + "\n# source: refresh\n# date: 2026-12-01\n"
                + "# zones: subscription sub-1, read 2026-12-01T08:00:00Z\n"
                + String.join(",", CatalogFormat.COLUMNS) + ",zones\n"
                + "Standard_D2s_v5,eastus,,,,,,2,8,false,x64,V1 V2,0.096,,,1 2 3\n"
                + "Standard_D4s_v5,eastus,,,,,,4,16,false,x64,V1 V2,0.192,,,none\n"
                + "Standard_D8s_v5,eastus,,,,,,8,32,false,x64,V1 V2,0.384,,,\n");
        Catalog catalog = CatalogLoader.fromFile(file);
        assertEquals(Optional.of(List.of("1", "2", "3")), catalog.entries().get(0).zones());
        assertEquals(Optional.of(List.of()), catalog.entries().get(1).zones(), "'none': a regional placement only");
        assertEquals(Optional.empty(), catalog.entries().get(2).zones(), "an empty cell: not recorded");
        assertEquals(Optional.of("subscription sub-1, read 2026-12-01T08:00:00Z"), catalog.zonesOrigin());

        StringWriter written = new StringWriter();
        CatalogFormat.write(catalog, written);
        assertTrue(written.toString().contains("\nStandard_D4s_v5,eastus,,,,,,4,16,false,x64,V1 V2,0.192,,,none\n"),
                written.toString());
        Catalog back = CatalogFormat.read(new java.io.StringReader(written.toString()), "written");
        assertEquals(catalog.entries(), back.entries());
        assertEquals(catalog.provenance(), back.provenance());
    }

    @Test
    void aCatalogWithoutZonesIsWrittenWithoutTheColumn() {
        StringWriter written = new StringWriter();
        CatalogFormat.write(CatalogLoader.embedded(), written);
        assertTrue(written.toString().contains("\n" + String.join(",", CatalogFormat.COLUMNS) + "\n"),
                "the header ends at restriction, so files without zones keep their bytes");
    }

    @Test
    void aBadZonesCellIsNamedWithWhatIsAllowed() throws IOException {
        Path file = dir.resolve("bad-zones.csv");
        Files.writeString(file, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n"
                + String.join(",", CatalogFormat.COLUMNS) + ",zones\n"
                + "Standard_D2s_v5,eastus,,,,,,2,8,false,x64,V1 V2,0.096,,,none 1\n"
                + "Standard_D4s_v5,eastus,,,,,,4,16,false,x64,V1 V2,0.192,,,1 1\n");
        GantryException error = assertThrows(GantryException.class, () -> CatalogLoader.fromFile(file));
        assertEquals(ErrorCode.CATALOG_INVALID, error.code());
        assertEquals(2, error.problems().size(), error.getMessage());
        assertEquals("zones", error.problems().get(0).path());
        assertTrue(error.problems().get(0).toString().contains("is 'none 1'; 'none' (no zone) cannot be listed with"
                + " zones"), error.getMessage());
        assertTrue(error.problems().get(1).toString().contains("is '1 1', which repeats a zone"), error.getMessage());
    }

    @Test
    void thePriceDateLineSaysUnknownOrADateAndWithoutItThePricesAreOfTheFileDate() throws IOException {
        String rows = String.join(",", CatalogFormat.COLUMNS) + "\n"
                + "Standard_D2s_v5,eastus,,,,,,2,8,false,x64,V1 V2,0.096,,\n";
        Path unknown = dir.resolve("unknown.csv");
        Files.writeString(unknown, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n# price-date: unknown\n"
                + rows);
        assertEquals(CatalogInfo.copied("s", LocalDate.of(2026, 11, 1)), CatalogLoader.fromFile(unknown).info());
        Path dated = dir.resolve("dated.csv");
        Files.writeString(dated, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n"
                + "# price-date: 2026-10-30\n" + rows);
        assertEquals(new CatalogInfo("s", LocalDate.of(2026, 11, 1), Optional.of(LocalDate.of(2026, 10, 30))),
                CatalogLoader.fromFile(dated).info());
        // Files written before the line existed are refresh caches, whose prices are of the fetch day.
        Path older = dir.resolve("older.csv");
        Files.writeString(older, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n" + rows);
        assertEquals(CatalogInfo.fetched("s", LocalDate.of(2026, 11, 1)), CatalogLoader.fromFile(older).info());
        Path bad = dir.resolve("bad-price-date.csv");
        Files.writeString(bad, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n# price-date: last week\n"
                + rows);
        GantryException error = assertThrows(GantryException.class, () -> CatalogLoader.fromFile(bad));
        assertEquals(bad + ":4: price-date 'last week' is neither an ISO date such as 2026-11-29 nor 'unknown' (the "
                + "source gives none)", error.getMessage());
    }

    @Test
    void writingAndReadingKeepsThePriceDate() throws IOException {
        for (CatalogInfo info : List.of(CatalogInfo.copied("c", LocalDate.of(2026, 11, 29)),
                CatalogInfo.fetched("f", LocalDate.of(2026, 12, 1)))) {
            Catalog catalog = new Catalog(CatalogLoader.embedded().entries().subList(0, 3), info,
                    GpuModels.standard(), RetiredSeries.azureRetirements());
            StringWriter written = new StringWriter();
            CatalogFormat.write(catalog, written);
            assertEquals(info, CatalogFormat.read(new java.io.StringReader(written.toString()), "written").info());
        }
    }

    @Test
    void fromFileNamesFileLineAndColumnOfABadRow() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n"
                + String.join(",", CatalogFormat.COLUMNS) + "\n"
                + "Standard_D2s_v5,eastus,,,,,,2,8,false,x64,V1 V2,0.096,,\n"
                + "Standard_D4s_v5,eastus,,,,,,4,16,false,sparc,V1 V2,0.192,,\n");
        GantryException error = assertThrows(GantryException.class, () -> CatalogLoader.fromFile(file));
        assertEquals(ErrorCode.CATALOG_INVALID, error.code());
        int column = "Standard_D4s_v5,eastus,,,,,,4,16,false,sparc".indexOf("sparc") + 1;
        assertEquals(file + ":6:" + column + ": arch: is 'sparc'; expected x64 or arm64", error.getMessage());
        assertEquals("arch", error.problems().get(0).path());
    }

    @Test
    void rowsWithTheWrongNumberOfCellsAreAllReported() throws IOException {
        Path file = dir.resolve("short.csv");
        Files.writeString(file, CatalogFormat.MAGIC + "\n# source: s\n# date: 2026-11-01\n"
                + String.join(",", CatalogFormat.COLUMNS) + "\n"
                + "Standard_D2s_v5,eastus,,,,,,2,8\n"
                + "Standard_D4s_v5,eastus,,,,,,4,16,false,x64,V1 V2,0.192,,\n"
                + "Standard_D8s_v5,eastus\n");
        GantryException error = assertThrows(GantryException.class, () -> CatalogLoader.fromFile(file));
        assertEquals(2, error.problems().size(), error.getMessage());
        assertTrue(error.problems().get(0).toString().startsWith(file + ":5:1: 9 cells, the header has 15"),
                error.getMessage());
        assertTrue(error.problems().get(1).toString().startsWith(file + ":7:1: 2 cells"), error.getMessage());
    }

    @Test
    void fromFileRejectsOtherFilesSayingWhichFormatsItReads() throws IOException {
        Path file = dir.resolve("other.json");
        Files.writeString(file, "{\"sizes\": []}\n");
        GantryException error = assertThrows(GantryException.class, () -> CatalogLoader.fromFile(file));
        assertEquals(ErrorCode.CATALOG_INVALID, error.code());
        assertTrue(error.getMessage().contains("InstanceType,AcceleratorName"), error.getMessage());
        assertTrue(error.getMessage().contains(CatalogFormat.MAGIC), error.getMessage());
        GantryException missing = assertThrows(GantryException.class,
                () -> CatalogLoader.fromFile(dir.resolve("nope.csv")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    @Test
    void cacheRoundTripsThroughTheOwnFormat() throws IOException {
        assertEquals(Optional.empty(), CatalogLoader.cached(dir));
        assertSame(CatalogLoader.embedded(), CatalogLoader.cachedOrEmbedded(dir));
        Catalog embedded = CatalogLoader.embedded();
        try (var writer = Files.newBufferedWriter(dir.resolve(CatalogLoader.CACHE_FILE))) {
            CatalogFormat.write(embedded, writer);
        }
        Catalog cached = CatalogLoader.cached(dir).orElseThrow();
        assertEquals(embedded.info(), cached.info());
        assertEquals(embedded.provenance(), cached.provenance());
        assertEquals(embedded.entries(), cached.entries());
    }
}
