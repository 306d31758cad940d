package dev.gantry.azure.prices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.RetailPricesFake;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RetailPricesClientTest {
    static final String H100 = RetailPricesFake.H100;

    @Test
    void followsNextPageLinkRetriesThrottlingAndKeepsLinuxConsumptionMeters() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 1, "2")) {
            RetailPricesClient client = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    waits::add, 4, Duration.ofSeconds(30));
            List<RetailPrice> prices = client.vmPrices(List.of("eastus"));

            assertEquals(List.of(Duration.ofSeconds(2)), waits, "waited as Retry-After said");
            assertEquals(List.of(429, 200, 200), new ArrayList<>(fake.statuses));
            assertEquals("serviceName eq 'Virtual Machines' and priceType eq 'Consumption'"
                    + " and (armRegionName eq 'eastus')", fake.filters.get(0));
            assertEquals(Set.of("ND96isr H100 v5", "ND96isr H100 v5 Spot", "D2s v5", "D2s v5 Spot"),
                    prices.stream().map(RetailPrice::meterName).collect(Collectors.toSet()));
            assertTrue(prices.stream().noneMatch(RetailPrice::windows));
        }
    }

    @Test
    void backsOffExponentiallyWithoutRetryAfterAndGivesUpAfterTheBound() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 10, null)) {
            RetailPricesClient client = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    waits::add, 4, Duration.ofSeconds(3));
            GantryException error = assertThrows(GantryException.class,
                    () -> client.vmPrices(List.of("eastus", "westus")));
            assertEquals(ErrorCode.REMOTE_ERROR, error.code());
            assertTrue(error.getMessage().contains("HTTP 429"), error.getMessage());
            assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3)), waits);
            assertEquals("serviceName eq 'Virtual Machines' and priceType eq 'Consumption'"
                    + " and (armRegionName eq 'eastus' or armRegionName eq 'westus')", fake.filters.get(0));
        }
    }

    @Test
    void retryAfterIsCappedByTheLongestWait() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 1, "3600")) {
            new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(), waits::add, 3, Duration.ofSeconds(5))
                    .vmPrices(List.of("eastus"));
            assertEquals(List.of(Duration.ofSeconds(5)), waits);
        }
    }

    @Test
    void retryAfterAsAnHttpDateInThePastMeansRetryNow() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 1, "Wed, 21 Oct 2015 07:28:00 GMT")) {
            new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(), waits::add, 3, Duration.ofSeconds(5))
                    .vmPrices(List.of("eastus"));
            assertEquals(List.of(Duration.ZERO), waits);
        }
    }


    @Test
    void dropsAbbreviatedWindowsAndCloudServicesRowsAndReadsSpotFromTheSkuName() throws Exception {
        List<String> rows = new ArrayList<>(RetailPricesFake.a100RowsThatHideTheLinuxPrice());
        rows.add(3, RetailPricesFake.item("Standard_NC24ads_A100_v4", "eastus", "NC24ads A100 v4",
                "Cloud Services NCadsA100v4 CloudServices", "NC24ads A100 v4", 4.2, "Consumption", "1 Hour",
                "2025-06-01T00:00:00Z"));
        List<String> page = List.of("[" + String.join(",", rows) + "]");
        try (RetailPricesFake fake = new RetailPricesFake(page, 0, null)) {
            List<RetailPrice> prices = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    d -> { }, 3, Duration.ofSeconds(5)).vmPrices(List.of("eastus"));

            assertEquals(List.of(3.673, 0.898), prices.stream().map(RetailPrice::retailPrice).toList(),
                    "the Linux price and the Spot price only");
            assertEquals(List.of(false, true), prices.stream().map(RetailPrice::spot).toList(),
                    "Spot said by the SKU name only is Spot");
        }
    }

    @Test
    void readsThousandItemPagesOfAVmSeriesWithTheFilterAppliedAndKeepsItsLinuxAndSpotPrices() throws Exception {
        List<String> rows = RetailPricesFake.seriesRows(List.of("eastus", "westus"), 200);
        try (RetailPricesFake fake = RetailPricesFake.paging(rows, 1, "1")) {
            List<Duration> waits = new ArrayList<>();
            List<RetailPrice> prices = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    waits::add, 3, Duration.ofSeconds(5)).vmPrices(List.of("eastus"));

            assertEquals(List.of(Duration.ofSeconds(1)), waits);
            // 200 sizes x 6 consumption rows in eastus (Dev/Test and reservations are filtered out by the API).
            assertEquals(List.of(1000, 200), new ArrayList<>(fake.counts), "two pages joined by NextPageLink");
            assertEquals(List.of(429, 200, 200), new ArrayList<>(fake.statuses));
            assertEquals(Set.of(fake.filters.get(0)), Set.copyOf(fake.filters), "every page asked with the filter");
            assertEquals(400, prices.size(), "a Linux and a Spot price for each of the 200 sizes");
            assertTrue(prices.stream().allMatch(p -> p.armRegionName().equals("eastus")
                    && p.productName().equals("Virtual Machines Dsv5 Series") && p.unitOfMeasure().equals("1 Hour")
                    && p.type().equals("Consumption")), "no other region, product, unit or price type");
            assertEquals(200, prices.stream().filter(RetailPrice::spot).count());
        }
    }
}
