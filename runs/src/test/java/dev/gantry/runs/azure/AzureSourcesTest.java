package dev.gantry.runs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.compute.SkuOffer;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.RetailPricesFake;
import dev.gantry.azure.prices.RetailPrice;
import dev.gantry.azure.prices.RetailPricesClient;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.refresh.RefreshedCatalogs;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.refresh.CatalogRefresher;
import dev.gantry.core.catalog.refresh.PriceBook;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.catalog.refresh.VmPrice;
import dev.gantry.core.quota.QuotaChecker;
import dev.gantry.core.quota.QuotaUsage;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapters from the azure module's clients to core's ports, against local fakes of the Retail Prices API and
 * Azure Resource Manager, through the real SDK: the refresh, the quota check and the price book over what they map.
 * Core's own tests decide over in-memory records.
 */
class AzureSourcesTest {
    static final String H100 = "Standard_ND96isr_H100_v5";
    @TempDir
    static Path dir;
    static ArmFake arm;
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);

    static Map<String, String> caps(String vcpus, String memory, String gpus, String generations, String rdma,
                                    String arch) {
        Map<String, String> caps = new LinkedHashMap<>();
        caps.put("vCPUs", vcpus);
        caps.put("vCPUsAvailable", vcpus);
        caps.put("MemoryGB", memory);
        if (gpus != null) {
            caps.put("GPUs", gpus);
        }
        caps.put("HyperVGenerations", generations);
        caps.put("RdmaEnabled", rdma);
        caps.put("CpuArchitectureType", arch);
        caps.put("LowPriorityCapable", "True");
        return caps;
    }

    @BeforeAll
    static void startArm() throws Exception {
        arm = new ArmFake();
        arm.throttle("/skus", 1, "0");
        arm.skus(ArmFake.sku("Standard_ND96isr_H100_v5", "standardNDSH100v5Family", "eastus",
                        caps("96", "1900", "8", "V2", "True", "x64"), null),
                // Closed in zones 1 and 2 for this subscription, yet usable in the region.
                ArmFake.sku("Standard_ND96isr_H200_v5", "standardNDSH200v5Family", "eastus",
                        caps("96", "1850", "8", "V2", "True", "x64"), null).replace("\"restrictions\":[]",
                        "\"restrictions\":[{\"type\":\"Zone\",\"values\":[\"eastus\"],\"restrictionInfo\":"
                        + "{\"locations\":[\"eastus\"],\"zones\":[\"1\",\"2\"]},\"reasonCode\":"
                        + "\"NotAvailableForSubscription\"}]"),
                ArmFake.sku("Standard_D2s_v5", "standardDSv5Family", "eastus",
                        caps("2", "8", null, "V1,V2", "False", "x64"), null),
                ArmFake.sku("Standard_D2pls_v5", "standardDPLSv5Family", "eastus",
                        caps("2", "4", null, "V2", "False", "Arm64"), null),
                ArmFake.sku("Standard_NC24ads_A100_v4", "StandardNCADSA100v4Family", "eastus",
                        caps("24", "220", "1", "V2", "False", "x64"), "NotAvailableForSubscription"),
                ArmFake.sku("Standard_NX8as_Z9_v1", "standardNXv1Family", "eastus",
                        caps("8", "64", "1", "V2", "False", "x64"), null),
                // Not VM sizes: the refresh must not take them for one.
                "{\"resourceType\":\"disks\",\"name\":\"Premium_LRS\",\"tier\":\"Premium\",\"size\":\"P1\","
                        + "\"locations\":[\"eastus\"],\"capabilities\":[],\"restrictions\":[]}",
                // Another region, spelled as Azure sometimes spells it: the quota check asks for it in lower case.
                ArmFake.sku("Standard_ND96isr_H100_v5", "standardNDSH100v5Family", "WestUS",
                        caps("96", "1900", "8", "V2", "True", "x64"), null));
        arm.usages("eastus", "[" + String.join(",",
                ArmFake.usage("cores", "Total Regional vCPUs", 40, 350),
                ArmFake.usage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 100)) + "]",
                "[" + String.join(",",
                ArmFake.usage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 96, 200),
                ArmFake.usage("standardDSv5Family", "Standard DSv5 Family vCPUs", 4, 100)) + "]");
        // A region whose regular vCPUs are nearly all in use but whose Spot quota is free.
        arm.usages("westus", "[" + String.join(",",
                ArmFake.usage("cores", "Total Regional vCPUs", 340, 350),
                ArmFake.usage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 500),
                ArmFake.usage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 0, 1000)) + "]");
    }

    static ResourceSkusClient skus() {
        return ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION);
    }

    static QuotaChecker quota() {
        ResourceSkusClient client = skus();
        return new QuotaChecker(AzureSources.skus(client), AzureSources.quotas(client));
    }

    @AfterAll
    static void stopArm() {
        arm.close();
        assertEquals(1, arm.throttled("/skus"), "the fake throttled the first SKU request once");
    }

    static List<String> prices() {
        return List.of("[" + String.join(",",
                RetailPricesFake.item("Standard_ND96isr_H100_v5", "eastus", "ND96isr H100 v5",
                        "Virtual Machines NDsr H100 v5 Series", "ND96isr H100 v5", 98.32),
                RetailPricesFake.item("Standard_ND96isr_H100_v5", "eastus", "ND96isr H100 v5 Spot",
                        "Virtual Machines NDsr H100 v5 Series", "ND96isr H100 v5 Spot", 39.33),
                RetailPricesFake.item("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                        "D2s v5", 0.096)) + "]",
                "[" + RetailPricesFake.item("Standard_D2pls_v5", "eastus", "D2pls v5",
                        "Virtual Machines Dplsv5 Series", "D2pls v5", 0.0385) + "]");
    }

    private static CatalogEntry entry(Catalog catalog, String size) {
        return RefreshedCatalogs.entry(catalog, size);
    }

    @Test
    void combinesPricesAndSkusIntoADatedCatalogWrittenToTheCache() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake pricesFake = new RetailPricesFake(prices(), 1, "1")) {
            RetailPricesClient prices = new RetailPricesClient(pricesFake.endpoint(), HttpClient.newHttpClient(),
                    waits::add, 3, Duration.ofSeconds(5));
            CatalogRefresher refresher = new CatalogRefresher(AzureSources.prices(prices),
                    Optional.of(AzureSources.skus(skus())),
                    CatalogLoader.embedded(), CLOCK);
            Path cache = dir.resolve("cache");
            Catalog catalog = refresher.refreshTo(cache, List.of("eastus"));

            assertEquals(LocalDate.of(2026, 12, 1), catalog.info().date());
            assertEquals(0, catalog.ageDays(CLOCK));
            assertEquals(List.of(Duration.ofSeconds(1)), waits);
            assertTrue(arm.requests("GET", "/skus").stream().anyMatch(r -> "1".equals(r.query().get("page"))),
                    "followed nextLink");
            assertTrue(arm.requests().stream().allMatch(r -> r.query().containsKey("api-version")),
                    arm.requests().toString());
            assertEquals(5, catalog.entries().size(), "the unknown GPU model is skipped");
            assertTrue(catalog.provenanceText().contains("Standard_NX8as_Z9_v1"), catalog.provenanceText());
            assertTrue(catalog.provenance().contains("origin: Azure Retail Prices API (" + RetailPricesClient.SELECTION
                    + ")"), catalog.provenanceText());

            RefreshedCatalogs.assertFixtureSizes(catalog, cache);
        }
    }

    @Test
    void tellsProgressEachPageOfPricesAndTheSizesPriced() throws Exception {
        try (RetailPricesFake pricesFake = new RetailPricesFake(prices(), 0, null)) {
            RetailPricesClient prices = new RetailPricesClient(pricesFake.endpoint(), HttpClient.newHttpClient(),
                    d -> { }, 3, Duration.ofSeconds(5));
            List<String> steps = new ArrayList<>();
            Catalog catalog = new CatalogRefresher(AzureSources.prices(prices), Optional.empty(),
                    CatalogLoader.embedded(), CLOCK).refresh(List.of("eastus"), (what, detail) -> steps.add(
                            what + (detail.isEmpty() ? "" : " / " + detail)));

            String fetching = "fetching prices for eastus (Azure Retail Prices API)";
            List<String> pages = new ArrayList<>(List.of(fetching));
            for (int page = 1; page <= prices().size(); page++) {
                pages.add(fetching + " / " + page + (page == 1 ? " page" : " pages"));
            }
            assertEquals(pages, steps.subList(0, pages.size()));
            assertEquals("pricing sizes / " + catalog.entries().size() + " of " + catalog.entries().size() + " sizes",
                    steps.get(steps.size() - 1));
        }
    }

    @Test
    void quotaCheckNamesRegionFamilyLimitUsageAndNeed() {
        QuotaChecker quota = quota();
        assertEquals(List.of(), quota.check("eastus", "Standard_ND96isr_H100_v5", 1, false));
        List<Problem> problems = quota.check("eastus", "Standard_ND96isr_H100_v5", 2, false);
        assertEquals(1, problems.size());
        assertEquals("plan.size: region eastus, quota standardNDSH100v5Family: limit 200 vCPUs, 96 in use, the plan"
                + " needs 192 (2 × Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at least 88"
                + " vCPUs for standardNDSH100v5Family in eastus, or plan fewer nodes or another region",
                problems.get(0).toString());
        List<Problem> big = quota.check("eastus", "Standard_ND96isr_H100_v5", 4, false);
        assertEquals(2, big.size(), "family and regional total both exceeded");
        assertTrue(big.get(1).message().contains("quota cores: limit 350 vCPUs, 40 in use"), big.get(1).message());
        List<Problem> spot = quota.check("eastus", "Standard_ND96isr_H100_v5", 2, true);
        assertTrue(spot.get(0).message().contains("quota lowPriorityCores: limit 100"), spot.toString());
        assertTrue(quota.check("eastus", "Standard_NC24ads_A100_v4", 1, false).get(0).message()
                .contains("NotAvailableForSubscription"));
        GantryException error = assertThrows(GantryException.class,
                () -> quota.require("eastus", "Standard_ND96isr_H100_v5", 2, false));
        assertEquals(ErrorCode.QUOTA_EXCEEDED, error.code());
        assertEquals(problems, error.problems());
    }

    @Test
    void aSpotPlanIsCheckedAgainstTheSpotQuotaOnly() {
        QuotaChecker quota = quota();
        assertEquals(List.of(), quota.check("westus", "Standard_ND96isr_H100_v5", 2, true),
                "192 Spot vCPUs fit the 500 of lowPriorityCores; the regional cores quota is not theirs");
        List<Problem> onDemand = quota.check("westus", "Standard_ND96isr_H100_v5", 2, false);
        assertEquals(1, onDemand.size());
        assertTrue(onDemand.get(0).message().contains("quota cores: limit 350 vCPUs, 340 in use"), onDemand.toString());
        List<Problem> tooMany = quota.check("westus", "Standard_ND96isr_H100_v5", 6, true);
        assertEquals(1, tooMany.size());
        assertTrue(tooMany.get(0).message().contains("quota lowPriorityCores: limit 500 vCPUs, 0 in use, the plan"
                + " needs 576"), tooMany.toString());
    }

    @Test
    void pricesTheRowsTheRetailClientKeeps() throws Exception {
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 0, null)) {
            RetailPricesClient client = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    d -> { }, 4, Duration.ofSeconds(30));

            PriceBook book = new PriceBook(AzureSources.prices(client).vmPrices(List.of("eastus"), pages -> { }));
            assertEquals(OptionalDouble.of(98.32), book.onDemand(H100, "eastus"));
            assertEquals(OptionalDouble.of(39.33), book.spot(H100, "eastus"));
            assertEquals(OptionalDouble.of(0.0096), book.spot("Standard_D2s_v5", "eastus"));
            assertEquals(OptionalDouble.empty(), book.onDemand(H100, "westus"));
        }
    }

    @Test
    void theLinuxPriceWinsOverLaterWindowsCloudServicesAndSpotRowsOfTheSameSize() throws Exception {
        String a100 = "Standard_NC24ads_A100_v4";
        List<String> page = List.of("[" + String.join(",", RetailPricesFake.a100RowsThatHideTheLinuxPrice()) + "]");
        try (RetailPricesFake fake = new RetailPricesFake(page, 0, null)) {
            PriceBook book = new PriceBook(AzureSources.prices(new RetailPricesClient(fake.endpoint(),
                    HttpClient.newHttpClient(), d -> { }, 3, Duration.ofSeconds(5))).vmPrices(List.of("eastus"),
                    pages -> { }));
            assertEquals(OptionalDouble.of(3.673), book.onDemand(a100, "eastus"));
            assertEquals(OptionalDouble.of(0.898), book.spot(a100, "eastus"));
            assertEquals(List.of(), book.conflicts());
        }
    }

    @Test
    void mapsAPriceRowAndASkuAsCoreReadsThem() {
        RetailPrice spot = new RetailPrice(H100, "eastus", "ND96isr H100 v5", "Virtual Machines NDsr H100 v5 Series",
                "ND96isr H100 v5 Spot", 39.33, "1 Hour", "USD", "Consumption", "2024-01-01T00:00:00Z", false);
        assertEquals(new VmPrice(H100, "eastus", "Virtual Machines NDsr H100 v5 Series", true, 39.33,
                "2024-01-01T00:00:00Z", false), AzureSources.price(spot), "spot by the SKU name's ' Spot'");

        SkuOffer arm = new SkuOffer("Standard_D2pls_v5", "standardDPLSv5Family", "eastus", OptionalInt.of(2),
                OptionalInt.empty(), OptionalDouble.of(4), OptionalInt.empty(), Set.of("V2"), Optional.of(false),
                Optional.of("Arm64"), Optional.of("NotAvailableForSubscription"));
        assertEquals(new SizeOffer("Standard_D2pls_v5", "standardDPLSv5Family", "eastus", OptionalInt.of(2),
                OptionalInt.empty(), OptionalDouble.of(4), OptionalInt.empty(), Set.of("V2"), Optional.of(false),
                Optional.of(Architecture.ARM64), Optional.of("NotAvailableForSubscription")), AzureSources.offer(arm));
        SkuOffer x64 = new SkuOffer("Standard_D2s_v5", "standardDSv5Family", "eastus", OptionalInt.of(2),
                OptionalInt.empty(), OptionalDouble.of(8), OptionalInt.empty(), Set.of(), Optional.empty(),
                Optional.of("x64"), Optional.empty());
        assertEquals(Optional.of(Architecture.X64), AzureSources.offer(x64).architecture());
        assertEquals(new QuotaUsage("cores", "Total Regional vCPUs", 40, 350),
                AzureSources.usage(new ComputeUsage("cores", "Total Regional vCPUs", 40, 350)));
    }
}
