package dev.gantry.core.catalog;

import dev.gantry.api.VmSize;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One VM size in one region with its prices in USD per VM-hour. A price that is missing, zero, or (for spot) not
 * below the on-demand price is unknown: empty, never cheapest.
 *
 * @param size the VM size and its facts
 * @param region the Azure region ({@code armRegionName})
 * @param onDemandPerHour the pay-as-you-go Linux price
 * @param spotPerHour the Spot Linux price
 * @param gpuModel facts about the size's GPU model, empty for CPU sizes or unknown models
 * @param restriction why the size cannot be used in this region (e.g. {@code NotAvailableForSubscription}), if so
 * @param zones the availability zones of the region where the refreshing subscription could allocate the size
 *     (Resource SKUs: {@code locationInfo.zones} less its {@code Zone} restrictions), in order; an empty list when it
 *     had none there (a regional placement only); empty when the catalog does not record zones (public price data,
 *     a refresh without a subscription, a file written before catalogs recorded them)
 */
public record CatalogEntry(VmSize size, String region, OptionalDouble onDemandPerHour, OptionalDouble spotPerHour,
                           Optional<GpuModel> gpuModel, Optional<String> restriction,
                           Optional<List<String>> zones) {
    public CatalogEntry {
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(onDemandPerHour, "onDemandPerHour");
        Objects.requireNonNull(spotPerHour, "spotPerHour");
        Objects.requireNonNull(gpuModel, "gpuModel");
        Objects.requireNonNull(restriction, "restriction");
        Objects.requireNonNull(zones, "zones");
        zones = zones.map(List::copyOf);
    }

    /** A row whose zones are not recorded. */
    public CatalogEntry(VmSize size, String region, OptionalDouble onDemandPerHour, OptionalDouble spotPerHour,
                        Optional<GpuModel> gpuModel, Optional<String> restriction) {
        this(size, region, onDemandPerHour, spotPerHour, gpuModel, restriction, Optional.empty());
    }

    /** The price for the capacity type, empty when unknown. */
    public OptionalDouble price(boolean spot) {
        return spot ? spotPerHour : onDemandPerHour;
    }
}
