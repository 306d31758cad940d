package dev.gantry.core.catalog.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Which of a price source's rows a catalog row gets. */
class PriceBookTest {
    @Test
    void twoProductsForOneSizeRegionAndCapacityAreReportedWithBothNames() {
        VmPrice series = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.096,
                "2024-01-01T00:00:00Z", true);
        VmPrice older = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.1,
                "2023-01-01T00:00:00Z", true);
        VmPrice other = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series Linux", false, 0.11,
                "2023-06-01T00:00:00Z", true);
        PriceBook book = new PriceBook(List.of(older, other, series, price("Standard_D4s_v5", false, 0.192)));

        assertEquals(List.of("Standard_D2s_v5 in eastus (on-demand): 2 products price it: 'Virtual Machines Dsv5"
                + " Series' at 0.096 USD/h, 'Virtual Machines Dsv5 Series Linux' at 0.11 USD/h; used 'Virtual"
                + " Machines Dsv5 Series' (latest effective date, then primary meter region, then lower price)"),
                book.conflicts(), "a newer price of the same product is no conflict; another product is");
        assertEquals(OptionalDouble.of(0.096), book.onDemand("Standard_D2s_v5", "eastus"));
    }

    @Test
    void anOnDemandAndASpotPriceOfOneProductAreNoConflict() {
        PriceBook book = new PriceBook(List.of(price("Standard_ND96isr_H100_v5", false, 98.32),
                price("Standard_ND96isr_H100_v5", true, 39.33)));
        assertEquals(List.of(), book.conflicts());
        assertEquals(OptionalDouble.of(98.32), book.onDemand("standard_nd96isr_h100_v5", "EastUS"),
                "sizes and regions compare in any case");
        assertEquals(OptionalDouble.of(39.33), book.spot("Standard_ND96isr_H100_v5", "eastus"));
        assertEquals(OptionalDouble.empty(), book.onDemand("Standard_ND96isr_H100_v5", "westus"));
    }

    @Test
    void spotNotBelowOnDemandIsUnknownAndZeroPricesAreIgnored() {
        PriceBook book = new PriceBook(List.of(
                price("Standard_NC40ads_H100_v5", false, 6.98),
                price("Standard_NC40ads_H100_v5", true, 6.98),
                price("Standard_D4s_v5", false, 0.0)));
        assertEquals(OptionalDouble.of(6.98), book.onDemand("Standard_NC40ads_H100_v5", "eastus"));
        assertEquals(OptionalDouble.empty(), book.spot("Standard_NC40ads_H100_v5", "eastus"));
        assertEquals(OptionalDouble.empty(), book.onDemand("Standard_D4s_v5", "eastus"));
    }

    @Test
    void laterEffectiveDateWinsThenPrimaryMeterRegionThenLowerPrice() {
        VmPrice old = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.1,
                "2023-01-01T00:00:00Z", true);
        VmPrice current = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.096,
                "2024-01-01T00:00:00Z", false);
        assertEquals(OptionalDouble.of(0.096), new PriceBook(List.of(old, current)).onDemand("Standard_D2s_v5",
                "eastus"));
        assertEquals(OptionalDouble.of(0.096), new PriceBook(List.of(current, old)).onDemand("Standard_D2s_v5",
                "eastus"));

        VmPrice secondary = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.09,
                "2024-01-01T00:00:00Z", false);
        VmPrice primary = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.1,
                "2024-01-01T00:00:00Z", true);
        VmPrice cheaper = new VmPrice("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", false, 0.095,
                "2024-01-01T00:00:00Z", true);
        assertEquals(OptionalDouble.of(0.1), new PriceBook(List.of(secondary, primary)).onDemand("Standard_D2s_v5",
                "eastus"), "same date: the primary meter region wins over a lower secondary price");
        assertEquals(OptionalDouble.of(0.095), new PriceBook(List.of(primary, cheaper, secondary))
                .onDemand("Standard_D2s_v5", "eastus"), "same date and meter region: the lower price");
    }

    private static VmPrice price(String size, boolean spot, double perHour) {
        return new VmPrice(size, "eastus", "Virtual Machines", spot, perHour, "2024-01-01T00:00:00Z", true);
    }
}
