package dev.gantry.core.catalog.refresh;

import java.util.Collection;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Where the refresh reads VM prices: the Azure Retail Prices API in production (the runs module's adapter over the
 * azure module's client), which passes only the Linux VM hourly rows. Which of them a catalog row gets is core's
 * decision ({@link PriceBook}).
 */
public interface PriceSource {
    /** The source's name, for progress and the catalog's provenance, e.g. {@code Azure Retail Prices API}. */
    String name();

    /**
     * Which of the source's rows it passes on, for the catalog's provenance (the rows it drops, how it tells spot
     * prices), e.g. {@code Linux consumption prices, USD per VM-hour; Windows ... excluded}.
     */
    String selection();

    /**
     * The Linux VM hourly prices, on demand and spot, of the regions (all regions when empty), telling
     * {@code pageFetched} the number of pages read so far after each page; a source that does not read pages reports
     * none.
     */
    List<VmPrice> vmPrices(Collection<String> regions, IntConsumer pageFetched);
}
