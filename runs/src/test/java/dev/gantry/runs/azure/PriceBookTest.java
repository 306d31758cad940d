package dev.gantry.runs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.azure.fakes.RetailPricesFake;
import dev.gantry.azure.prices.RetailPrice;
import dev.gantry.azure.prices.RetailPricesClient;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Which of Azure's price rows a catalog row gets. */
class PriceBookTest {
    static final String H100 = "Standard_ND96isr_H100_v5";

    @Test
    void pricesTheRowsTheRetailClientKeeps() throws Exception {
        try (RetailPricesFake fake = new RetailPricesFake(RetailPricesFake.twoPages(), 0, null)) {
            List<RetailPrice> prices = new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    d -> { }, 4, Duration.ofSeconds(30)).vmPrices(List.of("eastus"));

            PriceBook book = new PriceBook(prices);
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
            PriceBook book = new PriceBook(new RetailPricesClient(fake.endpoint(), HttpClient.newHttpClient(),
                    d -> { }, 3, Duration.ofSeconds(5)).vmPrices(List.of("eastus")));
            assertEquals(OptionalDouble.of(3.673), book.onDemand(a100, "eastus"));
            assertEquals(OptionalDouble.of(0.898), book.spot(a100, "eastus"));
            assertEquals(List.of(), book.conflicts());
        }
    }

    @Test
    void twoProductsForOneSizeRegionAndCapacityAreReportedWithBothNames() {
        RetailPrice series = new RetailPrice("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                "D2s v5", 0.096, "1 Hour", "USD", "Consumption", "2024-01-01T00:00:00Z", true);
        RetailPrice older = new RetailPrice("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                "D2s v5", 0.1, "1 Hour", "USD", "Consumption", "2023-01-01T00:00:00Z", true);
        RetailPrice other = new RetailPrice("Standard_D2s_v5", "eastus", "D2s v5",
                "Virtual Machines Dsv5 Series Linux", "D2s v5", 0.11, "1 Hour", "USD", "Consumption",
                "2023-06-01T00:00:00Z", true);
        PriceBook book = new PriceBook(List.of(older, other, series, price("Standard_D4s_v5", "D4s v5", 0.192)));

        assertEquals(List.of("Standard_D2s_v5 in eastus (on-demand): 2 products price it: 'Virtual Machines Dsv5"
                + " Series' at 0.096 USD/h, 'Virtual Machines Dsv5 Series Linux' at 0.11 USD/h; used 'Virtual"
                + " Machines Dsv5 Series' (latest effective date, then primary meter region, then lower price)"),
                book.conflicts(), "a newer price of the same product is no conflict; another product is");
        assertEquals(OptionalDouble.of(0.096), book.onDemand("Standard_D2s_v5", "eastus"));
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
