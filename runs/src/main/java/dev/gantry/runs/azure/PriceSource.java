package dev.gantry.runs.azure;

import dev.gantry.azure.prices.RetailPrice;
import java.util.Collection;
import java.util.List;

/**
 * Where the refresh reads VM prices: the Azure Retail Prices API in production
 * ({@link dev.gantry.azure.prices.RetailPricesClient}), which already dropped the rows that are not a Linux VM's
 * hourly price. Which of the remaining prices a catalog row gets is core's decision ({@link PriceBook}).
 */
@FunctionalInterface
public interface PriceSource {
    /** The Linux pay-as-you-go VM price rows of the regions (all regions when empty). */
    List<RetailPrice> vmPrices(Collection<String> regions);

    /**
     * As {@link #vmPrices(Collection)}, telling {@code pageFetched} the number of pages read so far after each page;
     * a source that does not read pages reports none.
     */
    default List<RetailPrice> vmPrices(Collection<String> regions, java.util.function.IntConsumer pageFetched) {
        return vmPrices(regions);
    }

    /** The Retail Prices API through this client, its pages reported as they are read. */
    static PriceSource retail(dev.gantry.azure.prices.RetailPricesClient client) {
        return new PriceSource() {
            @Override
            public List<RetailPrice> vmPrices(Collection<String> regions) {
                return client.vmPrices(regions);
            }

            @Override
            public List<RetailPrice> vmPrices(Collection<String> regions, java.util.function.IntConsumer pageFetched) {
                return client.vmPrices(regions, pageFetched);
            }
        };
    }
}
