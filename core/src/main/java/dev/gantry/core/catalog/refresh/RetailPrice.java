package dev.gantry.core.catalog.refresh;

import java.util.Objects;

/**
 * One item of the Azure Retail Prices API ({@code https://prices.azure.com/api/retail/prices}), reduced to the
 * fields the catalog uses.
 *
 * @param armSkuName the VM size, e.g. {@code Standard_ND96isr_H100_v5}
 * @param armRegionName the region, e.g. {@code eastus}
 * @param meterName e.g. {@code ND96isr H100 v5} or {@code ND96isr H100 v5 Spot}
 * @param productName e.g. {@code Virtual Machines NDsr H100 v5 Series} (Windows products say "Windows")
 * @param skuName e.g. {@code ND96isr H100 v5 Low Priority}
 * @param retailPrice price per {@code unitOfMeasure} in {@code currencyCode}
 * @param unitOfMeasure {@code 1 Hour} for VM meters
 * @param currencyCode {@code USD} by default
 * @param type {@code Consumption}, {@code Reservation} or {@code DevTestConsumption}
 * @param effectiveStartDate ISO date-time the price took effect, as the API writes it
 * @param primaryMeterRegion the API's {@code isPrimaryMeterRegion}
 */
public record RetailPrice(String armSkuName, String armRegionName, String meterName, String productName,
                          String skuName, double retailPrice, String unitOfMeasure, String currencyCode, String type,
                          String effectiveStartDate, boolean primaryMeterRegion) {
    public RetailPrice {
        Objects.requireNonNull(armSkuName, "armSkuName");
        Objects.requireNonNull(armRegionName, "armRegionName");
        Objects.requireNonNull(meterName, "meterName");
        Objects.requireNonNull(productName, "productName");
        Objects.requireNonNull(skuName, "skuName");
        Objects.requireNonNull(unitOfMeasure, "unitOfMeasure");
        Objects.requireNonNull(currencyCode, "currencyCode");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(effectiveStartDate, "effectiveStartDate");
    }

    /** Windows meters include the licence; the catalog prices Linux. */
    public boolean windows() {
        return productName.contains("Windows");
    }

    /** Spot meters are the ones whose meter name ends in " Spot". */
    public boolean spot() {
        return meterName.endsWith(" Spot");
    }

    /** Low Priority is the retired predecessor of Spot (Batch and old scale sets); never a VM price. */
    public boolean lowPriority() {
        return meterName.endsWith(" Low Priority") || skuName.endsWith(" Low Priority");
    }
}
