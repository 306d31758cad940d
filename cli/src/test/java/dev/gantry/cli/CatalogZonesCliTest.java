package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.CatalogInfo;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.refresh.CatalogRefresher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry catalog show} and {@code gantry plan} over a refreshed catalog that records zones, without a
 * subscription to ask: show says whose zones it records, and the plan keeps to them.
 */
class CatalogZonesCliTest {
    static final String ORIGIN = "subscription sub-1, read 2026-12-01T08:00:00Z (Resource SKUs: locationInfo zones"
            + " less Zone restrictions)";

    @TempDir
    Path home;
    Path work;

    @BeforeEach
    void refreshedCatalog() throws IOException {
        work = Files.createDirectories(home.resolve("work"));
        Files.writeString(work.resolve("train.yaml"),
                PlanCapacityTest.infinibandTraining("train", "  zones: {eastus: [1]}\n"));
        // The refresh's cache as a refresh by sub-1 writes it: every size in zones 1-3 but the one the plan would
        // choose in eastus without zones, which sub-1 could allocate in zone 3 only.
        Catalog embedded = CatalogLoader.embedded();
        List<CatalogEntry> entries = embedded.entries().stream()
                .filter(entry -> Set.of("eastus", "westus2").contains(entry.region()))
                .map(entry -> new CatalogEntry(entry.size(), entry.region(), entry.onDemandPerHour(),
                        entry.spotPerHour(), entry.gpuModel(), entry.restriction(), Optional.of(
                                entry.size().name().equals("Standard_ND96asr_v4") && entry.region().equals("eastus")
                                        ? List.of("3") : List.of("1", "2", "3"))))
                .toList();
        CatalogRefresher.write(new Catalog(entries, new CatalogInfo("Azure live refresh (eastus westus2)",
                LocalDate.of(2026, 12, 1)), embedded.gpuModels(), embedded.retiredSeries(),
                List.of("refreshed: 2026-12-01T08:00:00Z", Catalog.ZONES_RECORDED + ORIGIN)),
                home.resolve(".gantry").resolve("catalog"));
    }

    @Test
    void catalogShowSaysWhoseZonesTheCatalogRecords() throws IOException {
        CliRun run = CliRun.run(home, work, "catalog", "show");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("\nzones: recorded for "), run.toString());
        assertTrue(run.out.contains(" rows (" + ORIGIN + "); plans without a subscription to ask keep to them\n"),
                run.toString());

        CliRun json = CliRun.run(home, work, "catalog", "show", "--output", "json");
        assertEquals(0, json.exitCode, json.toString());
        JsonNode node = Json.MAPPER.readTree(json.out);
        assertTrue(node.get("zones").asText().startsWith("recorded for "), node.toString());
    }

    @Test
    void withoutASubscriptionThePlanKeepsToTheCatalogsZonesAndSaysWhereTheyCameFrom() {
        CliRun run = CliRun.run(home, work, null, Map.of(), "plan", "train.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertFalse(run.out.startsWith("train: 2 x Standard_ND96asr_v4 in eastus"),
                "recorded in zone 3 only, and the workload asks zone 1 there: " + run);
        assertTrue(run.out.contains("not allocatable in the zones asked: Standard_ND96asr_v4 in eastus (allocatable in"
                + " zone 3 as the catalog records; asked zone 1 by the workload)"), run.toString());
        assertTrue(run.out.contains("Q1  quota not checked: no subscription to ask (set AZURE_SUBSCRIPTION_ID and sign"
                + " in to Azure); zones from the catalog Azure live refresh (eastus westus2) of 2026-12-01 (" + ORIGIN
                + "), not read live"), run.toString());
        assertTrue(run.out.contains("(the catalog's zones, not read live)"), run.toString());
        assertFalse(run.out.contains("\nzones         - (regional placement)\n"), "the plan names its zones: " + run);
    }
}
