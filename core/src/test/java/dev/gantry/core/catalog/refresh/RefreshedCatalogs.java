package dev.gantry.core.catalog.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What a refresh of the shared fixtures' eastus sizes must hold, whichever way its prices and offers arrived: from
 * in-memory sources (core) or through the Azure adapters and the REST fakes (runs).
 */
public final class RefreshedCatalogs {
    private RefreshedCatalogs() {
    }

    /** The fixtures' sizes as the refresh made them, and the cache written in {@code cache} read back unchanged. */
    public static void assertFixtureSizes(Catalog catalog, Path cache) {
        CatalogEntry h100 = entry(catalog, "Standard_ND96isr_H100_v5");
        assertEquals(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA), h100.size().gpu().orElseThrow());
        assertEquals(OptionalDouble.of(98.32), h100.onDemandPerHour());
        assertEquals(OptionalDouble.of(39.33), h100.spotPerHour());
        assertTrue(h100.size().rdma());
        assertEquals(Optional.of(List.of("1", "2")), h100.zones(), "the zones the subscription can allocate it in");

        CatalogEntry h200 = entry(catalog, "Standard_ND96isr_H200_v5");
        assertEquals(Optional.empty(), h200.restriction());
        assertEquals(new GpuSpec("H200", 8, 141, GpuVendor.NVIDIA), h200.size().gpu().orElseThrow());
        assertEquals(OptionalDouble.empty(), h200.onDemandPerHour(), "no price: unknown");
        assertEquals(Optional.of(List.of()), h200.zones(),
                "restricted for the subscription in both its zones: recorded as no zone, not as unrecorded");

        assertEquals(Architecture.ARM64, entry(catalog, "Standard_D2pls_v5").size().architecture());
        assertEquals(Set.of("V1", "V2"), entry(catalog, "Standard_D2s_v5").size().hyperVGenerations());
        CatalogEntry restricted = entry(catalog, "Standard_NC24ads_A100_v4");
        assertEquals(Optional.of("NotAvailableForSubscription"), restricted.restriction());
        assertEquals(80, restricted.size().gpu().orElseThrow().memoryGib());

        Catalog cached = CatalogLoader.cached(cache).orElseThrow();
        assertEquals(catalog.info(), cached.info());
        assertEquals(catalog.entries(), cached.entries());
        assertEquals(catalog.provenance(), cached.provenance());
        assertTrue(cached.recordsZones(), "the cache keeps the zones");
        assertTrue(cached.zonesOrigin().orElseThrow().contains("read 2026-12-01T08:00:00Z"), cached.provenanceText());
    }

    /** The catalog's one row of {@code size}. */
    public static CatalogEntry entry(Catalog catalog, String size) {
        return catalog.entries().stream().filter(e -> e.size().name().equals(size)).findFirst()
                .orElseThrow(() -> new AssertionError(size + " is not in the catalog"));
    }
}
