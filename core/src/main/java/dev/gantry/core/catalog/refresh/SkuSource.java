package dev.gantry.core.catalog.refresh;

import java.util.Collection;
import java.util.List;

/**
 * Where the refresh and the quota check read the VM sizes offered to a subscription: the Azure Resource SKUs API in
 * production (the runs module's adapter over the azure module's client).
 */
@FunctionalInterface
public interface SkuSource {
    /** Every VM size offered to the subscription in the regions, one offer per size and region. */
    List<SizeOffer> vmSkus(Collection<String> regions);
}
