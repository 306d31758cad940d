package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.CatalogInfo;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The project's own tables hang together and say where their facts come from. */
class CatalogTablesTest {

    @Test
    void everySizeFactNamesAnAzureDocsSourceAndAKnownGpuModel() {
        Map<String, SizeFacts> facts = SizeFacts.standard();
        assertTrue(facts.size() >= 15, facts.keySet().toString());
        for (SizeFacts fact : facts.values()) {
            assertTrue(fact.source().startsWith("https://learn.microsoft.com/azure/virtual-machines/"), fact.size());
            assertTrue(SizeName.parse(fact.size()).isPresent(), fact.size());
            fact.gpuModel().ifPresent(model -> assertTrue(GpuModels.standard().containsKey(model),
                    fact.size() + " names GPU model " + model + " missing from gpus.csv"));
            assertTrue(!fact.interconnect().isEmpty(), fact.size());
        }
    }

    @Test
    void sizesTheCsvLacksCarryEverythingAVmSizeNeeds() {
        for (String size : List.of("Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5")) {
            SizeFacts fact = SizeFacts.standard().get(size);
            assertTrue(fact.vcpus().isPresent() && fact.memoryGib().isPresent() && fact.gpuCount().isPresent()
                    && !fact.hyperVGenerations().isEmpty() && fact.addToRegionsOf().isPresent(), size);
            assertEquals(8, fact.gpuCount().getAsInt());
        }
        assertEquals("Standard_ND96isr_H100_v5",
                SizeFacts.standard().get("Standard_ND96isr_H200_v5").addToRegionsOf().orElseThrow());
    }

    @Test
    void summarySaysWhichCatalogAndHowOld() {
        Catalog catalog = new Catalog(List.of(), new CatalogInfo("test catalog", LocalDate.of(2026, 11, 29)),
                Map.of(), List.of());
        assertEquals("catalog: test catalog, prices of 2026-11-29 (fetched that day), from today",
                catalog.summary(Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC)));
        assertEquals("catalog: test catalog, prices of 2026-11-29 (fetched that day), 1 day old",
                catalog.summary(Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC)));
        assertEquals("catalog: test catalog, prices of 2026-11-29 (fetched that day), 33 days old",
                catalog.summary(Clock.fixed(Instant.parse("2027-01-01T10:00:00Z"), ZoneOffset.UTC)));
        assertEquals(List.of(), catalog.provenance());
    }

    @Test
    void summaryOfACopiedCatalogSaysTheCopyDateThatThePriceDateIsUnknownAndHowToRefresh() {
        Catalog catalog = new Catalog(List.of(), CatalogInfo.copied("copied catalog", LocalDate.of(2026, 11, 29)),
                Map.of(), List.of());
        assertEquals("catalog: copied catalog, copied 2026-11-29, 2 days ago; price date unknown (the source gives "
                        + "none); refresh with 'gantry catalog refresh --region REGION'",
                catalog.summary(Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC)));
        assertEquals("catalog: copied catalog, copied 2026-11-29, today; price date unknown (the source gives "
                        + "none); refresh with 'gantry catalog refresh --region REGION'",
                catalog.summary(Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC)));
    }
}
