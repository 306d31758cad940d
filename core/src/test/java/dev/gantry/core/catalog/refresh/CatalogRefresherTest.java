package dev.gantry.core.catalog.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.VmSize;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the refresh merges prices and size offers with the base catalog, over in-memory sources (no HTTP). */
class CatalogRefresherTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);
    static final String H100 = "Standard_ND96isr_H100_v5";

    @TempDir
    Path dir;

    /** Prices in pages, as a source that reads pages reports them; every call is recorded. */
    static final class PagedPrices implements PriceSource {
        final List<List<VmPrice>> pages;
        final List<Collection<String>> asked = new ArrayList<>();

        PagedPrices(List<List<VmPrice>> pages) {
            this.pages = pages;
        }

        @Override
        public String name() {
            return "Test Prices";
        }

        @Override
        public String selection() {
            return "Linux hourly rows only";
        }

        @Override
        public List<VmPrice> vmPrices(Collection<String> regions, IntConsumer pageFetched) {
            asked.add(List.copyOf(regions));
            List<VmPrice> all = new ArrayList<>();
            for (int page = 0; page < pages.size(); page++) {
                all.addAll(pages.get(page));
                pageFetched.accept(page + 1);
            }
            return all;
        }
    }

    static VmPrice price(String size, String product, boolean spot, double perHour) {
        return new VmPrice(size, "eastus", product, spot, perHour, "2024-01-01T00:00:00Z", true);
    }

    static PagedPrices prices() {
        return new PagedPrices(List.of(
                List.of(price(H100, "Virtual Machines NDsr H100 v5 Series", false, 98.32),
                        price(H100, "Virtual Machines NDsr H100 v5 Series", true, 39.33),
                        price("Standard_D2s_v5", "Virtual Machines Dsv5 Series", false, 0.096)),
                List.of(price("Standard_D2pls_v5", "Virtual Machines Dplsv5 Series", false, 0.0385))));
    }

    /** An offer in zones 1 and 2 of eastus, as the runs module's ARM fake offers its SKUs. */
    static SizeOffer offer(String name, String family, int vcpus, double memory, Integer gpus, Set<String> generations,
                           boolean rdma, Architecture architecture, String restriction) {
        return offer(name, family, vcpus, memory, gpus, generations, rdma, architecture, restriction,
                List.of("1", "2"));
    }

    static SizeOffer offer(String name, String family, int vcpus, double memory, Integer gpus, Set<String> generations,
                           boolean rdma, Architecture architecture, String restriction, List<String> zones) {
        return new SizeOffer(name, family, "eastus", OptionalInt.of(vcpus), OptionalInt.of(vcpus),
                OptionalDouble.of(memory), gpus == null ? OptionalInt.empty() : OptionalInt.of(gpus), generations,
                Optional.of(rdma), Optional.of(architecture), Optional.ofNullable(restriction), zones);
    }

    static List<SizeOffer> offers() {
        return List.of(
                offer(H100, "standardNDSH100v5Family", 96, 1900, 8, Set.of("V2"), true, Architecture.X64, null),
                // Restricted for the subscription in both of the region's zones: allocatable in none.
                offer("Standard_ND96isr_H200_v5", "standardNDSH200v5Family", 96, 1850, 8, Set.of("V2"), true,
                        Architecture.X64, null, List.of()),
                offer("Standard_D2s_v5", "standardDSv5Family", 2, 8, null, Set.of("V1", "V2"), false,
                        Architecture.X64, null),
                offer("Standard_D2pls_v5", "standardDPLSv5Family", 2, 4, null, Set.of("V2"), false,
                        Architecture.ARM64, null),
                offer("Standard_NC24ads_A100_v4", "StandardNCADSA100v4Family", 24, 220, 1, Set.of("V2"), false,
                        Architecture.X64, "NotAvailableForSubscription"),
                // A GPU model the project does not know: skipped and named in the provenance.
                offer("Standard_NX8as_Z9_v1", "standardNXv1Family", 8, 64, 1, Set.of("V2"), false,
                        Architecture.X64, null));
    }

    private static CatalogEntry entry(Catalog catalog, String size) {
        return RefreshedCatalogs.entry(catalog, size);
    }

    @Test
    void mergesPricesAndOffersIntoADatedCatalogWrittenToTheCache() {
        CatalogRefresher refresher = new CatalogRefresher(prices(), Optional.of(regions -> offers()),
                CatalogLoader.embedded(), CLOCK);
        Path cache = dir.resolve("cache");
        Catalog catalog = refresher.refreshTo(cache, List.of("EastUS"));

        assertEquals(LocalDate.of(2026, 12, 1), catalog.info().date());
        assertEquals("Azure live refresh (eastus)", catalog.info().source());
        assertEquals(5, catalog.entries().size(), "the unknown GPU model is skipped");
        assertTrue(catalog.provenance().contains("origin: Test Prices (Linux hourly rows only)"),
                catalog.provenanceText());
        assertTrue(catalog.provenance().contains("regions: eastus"), catalog.provenanceText());
        assertTrue(catalog.provenance().contains("refreshed: 2026-12-01T08:00:00Z"), catalog.provenanceText());
        assertTrue(catalog.provenanceText().contains("skipped: sizes whose facts are incomplete (GPU model unknown to"
                + " the project, or no vCPU or memory capability): Standard_NX8as_Z9_v1"), catalog.provenanceText());
        assertTrue(catalog.provenance().contains("note: 2 of 5 rows have no on-demand price (unknown)"),
                catalog.provenanceText());
        assertEquals(Optional.of("read 2026-12-01T08:00:00Z (Resource SKUs: locationInfo zones less Zone"
                + " restrictions)"), catalog.zonesOrigin(), "a source that does not name its subscription");

        RefreshedCatalogs.assertFixtureSizes(catalog, cache);
    }

    @Test
    void recordsTheZonesAndTheSubscriptionTheyWereReadFor() {
        Catalog catalog = new CatalogRefresher(prices(), Optional.of(SkuSource.of("sub-1", regions -> offers())),
                CatalogLoader.embedded(), CLOCK).refresh(List.of("eastus"));
        assertTrue(catalog.recordsZones());
        assertEquals(Optional.of("subscription sub-1, read 2026-12-01T08:00:00Z (Resource SKUs: locationInfo zones"
                + " less Zone restrictions)"), catalog.zonesOrigin());
        assertTrue(catalog.summarize(CLOCK).zones().startsWith("recorded for 5 of 5 rows (subscription sub-1, read "),
                catalog.summarize(CLOCK).zones());
        assertEquals(Optional.of(List.of("1", "2")), entry(catalog, H100).zones());
        assertEquals(Optional.of(List.of()), entry(catalog, "Standard_ND96isr_H200_v5").zones(),
                "restricted in every zone: recorded as no zone, not as unrecorded");
    }

    @Test
    void factsAnOfferLacksComeFromTheBaseCatalogOrTheSizesName() {
        VmSize known = entry(CatalogLoader.embedded(), "Standard_E2s_v5").size();
        SizeOffer bare = new SizeOffer("Standard_E2s_v5", "standardESv5Family", "eastus", OptionalInt.empty(),
                OptionalInt.empty(), OptionalDouble.empty(), OptionalInt.empty(), Set.of(), Optional.empty(),
                Optional.empty(), Optional.empty());
        SizeOffer armByName = new SizeOffer("Standard_D2pls_v5", "standardDPLSv5Family", "eastus", OptionalInt.of(2),
                OptionalInt.empty(), OptionalDouble.of(4), OptionalInt.empty(), Set.of("V2"), Optional.empty(),
                Optional.empty(), Optional.empty());
        SizeOffer unknown = new SizeOffer("Standard_D9zz_v9", "standardDZZv9Family", "eastus", OptionalInt.of(9),
                OptionalInt.empty(), OptionalDouble.empty(), OptionalInt.empty(), Set.of(), Optional.empty(),
                Optional.empty(), Optional.empty());
        Catalog catalog = new CatalogRefresher(prices(), Optional.of(regions -> List.of(bare, armByName, unknown)),
                CatalogLoader.embedded(), CLOCK).refresh(List.of("eastus"));

        VmSize filled = entry(catalog, "Standard_E2s_v5").size();
        assertEquals(known.vcpus(), filled.vcpus());
        assertEquals(known.memoryGib(), filled.memoryGib());
        assertEquals(known.hyperVGenerations(), filled.hyperVGenerations());
        assertEquals(Architecture.ARM64, entry(catalog, "Standard_D2pls_v5").size().architecture(),
                "the 'p' in the name says Arm when the offer does not");
        assertTrue(catalog.provenanceText().contains("): Standard_D9zz_v9"),
                "no memory anywhere: skipped, " + catalog.provenanceText());
        assertEquals(2, catalog.entries().size());
    }

    @Test
    void tellsProgressEachPageOfPricesAndTheSizesPriced() {
        List<String> steps = new ArrayList<>();
        Catalog catalog = new CatalogRefresher(prices(), Optional.empty(), CatalogLoader.embedded(), CLOCK)
                .refresh(List.of("eastus"), (what, detail) -> steps.add(what
                        + (detail.isEmpty() ? "" : " / " + detail)));

        String fetching = "fetching prices for eastus (Test Prices)";
        assertEquals(List.of(fetching, fetching + " / 1 page", fetching + " / 2 pages"), steps.subList(0, 3));
        assertEquals("pricing sizes / " + catalog.entries().size() + " of " + catalog.entries().size() + " sizes",
                steps.get(steps.size() - 1));
    }

    @Test
    void withoutOffersRepricesTheBaseCatalogsSizes() {
        PagedPrices prices = prices();
        Catalog catalog = new CatalogRefresher(prices, Optional.empty(), CatalogLoader.embedded(), CLOCK)
                .refresh(List.of("eastus"));
        assertEquals(List.of(List.of("eastus")), prices.asked);
        assertEquals(Set.of("eastus"), catalog.regions());
        assertEquals(CatalogLoader.embedded().entries().stream().filter(e -> e.region().equals("eastus")).count(),
                catalog.entries().size());
        assertEquals(OptionalDouble.of(39.33), entry(catalog, H100).spotPerHour());
        assertEquals(OptionalDouble.empty(), entry(catalog, "Standard_E2s_v5").onDemandPerHour());
        assertTrue(catalog.provenanceText().contains("sizes: from the base catalog ("
                + CatalogLoader.embedded().info().source() + "), without credentials for the Resource SKUs API"),
                catalog.provenanceText());
        assertFalse(catalog.recordsZones(), "no subscription's offers, so no zones: not recorded, never 'none'");
        assertEquals(Optional.empty(), catalog.zonesOrigin());
        assertTrue(catalog.summarize(CLOCK).zones().startsWith("not recorded"), catalog.summarize(CLOCK).zones());
    }

    @Test
    void refusesAnEmptyRegionListNamingTheCatalogsRegions() {
        GantryException none = assertThrows(GantryException.class,
                () -> new CatalogRefresher(prices(), Optional.empty(), CatalogLoader.embedded(), CLOCK)
                        .refresh(List.of()));
        assertEquals(ErrorCode.USAGE, none.code());
        assertTrue(none.getMessage().contains("--region R"), none.getMessage());
    }

    @Test
    void anUnwritableCacheSaysWhere() throws Exception {
        Path blocked = dir.resolve("blocked");
        Files.writeString(blocked, "a file where the cache directory should be");
        GantryException error = assertThrows(GantryException.class,
                () -> CatalogRefresher.write(CatalogLoader.embedded(), blocked));
        assertEquals(ErrorCode.CONFIG_INVALID, error.code());
        assertTrue(error.getMessage().contains(blocked.resolve(CatalogLoader.CACHE_FILE).toString()),
                error.getMessage());
    }

    @Test
    void twoProductsPricingOneSizeAreWarnedInTheProvenance() {
        PagedPrices prices = new PagedPrices(List.of(List.of(
                price(H100, "Virtual Machines NDsr H100 v5 Series", false, 98.32),
                price(H100, "Virtual Machines NDsrH100v5 Series", false, 97.0))));
        Catalog catalog = new CatalogRefresher(prices, Optional.empty(), CatalogLoader.embedded(), CLOCK)
                .refresh(List.of("eastus"));
        assertTrue(catalog.provenance().contains("warning: Standard_ND96isr_H100_v5 in eastus (on-demand): 2"
                + " products price it: 'Virtual Machines NDsrH100v5 Series' at 97.0 USD/h, 'Virtual Machines NDsr"
                + " H100 v5 Series' at 98.32 USD/h; used 'Virtual Machines NDsrH100v5 Series' (latest effective"
                + " date, then primary meter region, then lower price)"), catalog.provenanceText());
    }
}
