package dev.gantry.core.quota;

import java.util.Map;

/**
 * Where the quota check reads a subscription's vCPU quotas: the Compute usages API in production (the runs module's
 * adapter over the azure module's client). Read on every check, since usage changes as VMs start and stop.
 */
@FunctionalInterface
public interface QuotaSource {
    /** The region's quotas by name in lower case ({@code cores}, {@code lowprioritycores}, a family's name). */
    Map<String, QuotaUsage> usages(String region);
}
