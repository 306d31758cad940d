package dev.gantry.core.catalog.refresh;

import java.util.Objects;

/**
 * The hourly price of a Linux VM size in one region, on demand or spot, as a {@link PriceSource} reports it: the
 * facts {@link PriceBook} chooses by. Which of a price list's rows are such a price (not Windows, Cloud Services, Low
 * Priority, a reservation or a monthly meter) is the source's knowledge; it passes only these.
 *
 * @param size the VM size, e.g. {@code Standard_ND96isr_H100_v5}
 * @param region the region, e.g. {@code eastus}
 * @param productName the product that prices it, e.g. {@code Virtual Machines NDsr H100 v5 Series}: two products
 *     pricing one size, region and capacity are an ambiguity the book reports
 * @param spot whether this is the spot price rather than the on-demand one
 * @param perHour US dollars per VM-hour; zero or less is unknown
 * @param effectiveStartDate when the price took effect, as an ISO-8601 date-time in UTC
 *     ({@code 2024-01-01T00:00:00Z}), so that the later one also sorts later
 * @param primaryMeterRegion whether the row is of the region's primary meter, preferred over a secondary one
 */
public record VmPrice(String size, String region, String productName, boolean spot, double perHour,
                      String effectiveStartDate, boolean primaryMeterRegion) {
    public VmPrice {
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(productName, "productName");
        Objects.requireNonNull(effectiveStartDate, "effectiveStartDate");
    }

    /** The capacity this row prices: {@code spot} or {@code on-demand}. */
    public String capacity() {
        return spot ? "spot" : "on-demand";
    }
}
