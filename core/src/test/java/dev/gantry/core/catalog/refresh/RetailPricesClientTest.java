package dev.gantry.core.catalog.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RetailPricesClientTest {
    static final String H100 = "Standard_ND96isr_H100_v5";

    static List<String> twoPages() {
        String page1 = "[" + String.join(",",
                RetailPricesFake.item(H100, "eastus", "ND96isr H100 v5", "Virtual Machines NDsr H100 v5 Series",
                        "ND96isr H100 v5", 98.32),
                RetailPricesFake.item(H100, "eastus", "ND96isr H100 v5 Spot", "Virtual Machines NDsr H100 v5 Series",
                        "ND96isr H100 v5 Spot", 39.33),
                RetailPricesFake.item(H100, "eastus", "ND96isr H100 v5", "Virtual Machines NDsr H100 v5 Series Windows",
                        "ND96isr H100 v5", 102.0)) + "]";
        String page2 = "[" + String.join(",",
                RetailPricesFake.item(H100, "eastus", "ND96isr H100 v5 Low Priority",
                        "Virtual Machines NDsr H100 v5 Series", "ND96isr H100 v5 Low Priority", 19.66),
                RetailPricesFake.item("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                        "D2s v5", 0.096),
                RetailPricesFake.item("Standard_D2s_v5", "eastus", "D2s v5 Spot", "Virtual Machines Dsv5 Series",
                        "D2s v5 Spot", 0.0096)) + "]";
        return List.of(page1, page2);
    }

    @Test
    void followsNextPageLinkRetriesThrottlingAndKeepsLinuxConsumptionMeters() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(twoPages(), 1, "2")) {
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

            PriceBook book = new PriceBook(prices);
            assertEquals(OptionalDouble.of(98.32), book.onDemand(H100, "eastus"));
            assertEquals(OptionalDouble.of(39.33), book.spot(H100, "eastus"));
            assertEquals(OptionalDouble.of(0.0096), book.spot("Standard_D2s_v5", "eastus"));
            assertEquals(OptionalDouble.empty(), book.onDemand(H100, "westus"));
        }
    }

    @Test
    void backsOffExponentiallyWithoutRetryAfterAndGivesUpAfterTheBound() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(twoPages(), 10, null)) {
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
        try (RetailPricesFake fake = new RetailPricesFake(twoPages(), 1, "3600")) {
            new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(), waits::add, 3, Duration.ofSeconds(5))
                    .vmPrices(List.of("eastus"));
            assertEquals(List.of(Duration.ofSeconds(5)), waits);
        }
    }

    @Test
    void retryAfterAsAnHttpDateInThePastMeansRetryNow() throws Exception {
        List<Duration> waits = new ArrayList<>();
        try (RetailPricesFake fake = new RetailPricesFake(twoPages(), 1, "Wed, 21 Oct 2015 07:28:00 GMT")) {
            new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(), waits::add, 3, Duration.ofSeconds(5))
                    .vmPrices(List.of("eastus"));
            assertEquals(List.of(Duration.ZERO), waits);
        }
    }

    @Test
    void spotNotBelowOnDemandIsUnknownAndZeroPricesAreIgnored() {
        PriceBook book = new PriceBook(List.of(
                price("Standard_NC40ads_H100_v5", "NC40ads H100 v5", 6.98),
                price("Standard_NC40ads_H100_v5", "NC40ads H100 v5 Spot", 6.98),
                price("Standard_D4s_v5", "D4s v5", 0.0)));
        assertEquals(OptionalDouble.of(6.98), book.onDemand("Standard_NC40ads_H100_v5", "eastus"));
        assertEquals(OptionalDouble.empty(), book.spot("Standard_NC40ads_H100_v5", "eastus"));
        assertEquals(OptionalDouble.empty(), book.onDemand("Standard_D4s_v5", "eastus"));
    }

    @Test
    void laterEffectiveDateWinsThenPrimaryMeterRegionThenLowerPrice() {
        RetailPrice old = new RetailPrice("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                "D2s v5", 0.1, "1 Hour", "USD", "Consumption", "2023-01-01T00:00:00Z", true);
        RetailPrice current = new RetailPrice("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                "D2s v5", 0.096, "1 Hour", "USD", "Consumption", "2024-01-01T00:00:00Z", false);
        assertEquals(OptionalDouble.of(0.096), new PriceBook(List.of(old, current)).onDemand("Standard_D2s_v5",
                "eastus"));
        assertEquals(OptionalDouble.of(0.096), new PriceBook(List.of(current, old)).onDemand("Standard_D2s_v5",
                "eastus"));
    }

    private static RetailPrice price(String sku, String meter, double value) {
        return new RetailPrice(sku, "eastus", meter, "Virtual Machines", meter, value, "1 Hour", "USD",
                "Consumption", "2024-01-01T00:00:00Z", true);
    }
}
