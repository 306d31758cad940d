package dev.gantry.azure.prices;

import java.util.Objects;

/**
 * One item of the Azure Retail Prices API ({@code https://prices.azure.com/api/retail/prices}), reduced to the
 * fields the catalog uses.
 *
 * @param armSkuName the VM size, e.g. {@code Standard_ND96isr_H100_v5}
 * @param armRegionName the region, e.g. {@code eastus}
 * @param meterName e.g. {@code ND96isr H100 v5} or {@code ND96isr H100 v5 Spot}
 * @param productName e.g. {@code Virtual Machines NDsr H100 v5 Series} (Windows products say "Windows" or "Win")
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

    /**
     * Windows meters include the licence; the catalog prices Linux. Azure spells the product "... Windows" and,
     * for some series, abbreviates it ("Virtual Machines NCadsA100v4 Srs Win"), so both words count.
     */
    public boolean windows() {
        return hasWord(productName, "Windows") || hasWord(productName, "Win");
    }

    /**
     * Cloud Services (classic) roles share the VM's {@code armSkuName} but are a different product
     * ("... Series Cloud Services", or "CloudServices" in one word).
     */
    public boolean cloudServices() {
        String product = productName.replace(" ", "").toLowerCase(java.util.Locale.ROOT);
        return product.contains("cloudservices");
    }

    /** Spot meters say so in the meter's or the SKU's name ("ND96isr H100 v5 Spot"); Azure fills either. */
    public boolean spot() {
        return meterName.endsWith(" Spot") || skuName.endsWith(" Spot");
    }

    /** Low Priority is the retired predecessor of Spot (Batch and old scale sets); never a VM price. */
    public boolean lowPriority() {
        return meterName.endsWith(" Low Priority") || skuName.endsWith(" Low Priority");
    }

    /**
     * Whether this row is the hourly pay-as-you-go price of a Linux VM (on demand or Spot) in dollars: not Windows,
     * Cloud Services or Low Priority, not Dev/Test or a reservation, not a monthly or other non-hourly meter.
     */
    public boolean linuxVmHourly() {
        return !windows() && !cloudServices() && !lowPriority() && type.equals("Consumption")
                && unitOfMeasure.equals("1 Hour") && currencyCode.equals("USD") && !armSkuName.isEmpty();
    }

    /** The capacity this row prices: {@code spot} or {@code on-demand}. */
    public String capacity() {
        return spot() ? "spot" : "on-demand";
    }

    private static boolean hasWord(String text, String word) {
        for (String token : text.split("[\\s,()]+")) {
            if (token.equals(word)) {
                return true;
            }
        }
        return false;
    }
}
