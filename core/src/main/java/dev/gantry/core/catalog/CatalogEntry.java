package dev.gantry.core.catalog;

import dev.gantry.api.VmSize;
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
 */
public record CatalogEntry(VmSize size, String region, OptionalDouble onDemandPerHour, OptionalDouble spotPerHour,
                           Optional<GpuModel> gpuModel, Optional<String> restriction) {
    public CatalogEntry {
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(onDemandPerHour, "onDemandPerHour");
        Objects.requireNonNull(spotPerHour, "spotPerHour");
        Objects.requireNonNull(gpuModel, "gpuModel");
        Objects.requireNonNull(restriction, "restriction");
    }

    /** The price for the capacity type, empty when unknown. */
    public OptionalDouble price(boolean spot) {
        return spot ? spotPerHour : onDemandPerHour;
    }
}
