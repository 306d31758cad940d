package dev.gantry.runs.azure;

import dev.gantry.azure.compute.SkuOffer;
import java.util.Collection;
import java.util.List;

/**
 * Where the refresh and the quota check read a subscription's VM sizes: the Resource SKUs API in production
 * ({@link dev.gantry.azure.compute.ResourceSkusClient}).
 */
@FunctionalInterface
public interface SkuSource {
    /** Every virtual-machine SKU offered to the subscription in the regions, one offer per SKU and region. */
    List<SkuOffer> vmSkus(Collection<String> regions);
}
