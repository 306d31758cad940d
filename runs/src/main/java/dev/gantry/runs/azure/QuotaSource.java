package dev.gantry.runs.azure;

import dev.gantry.azure.compute.ComputeUsage;
import java.util.Map;

/**
 * Where the quota check reads a subscription's vCPU quotas: the Compute usages API in production
 * ({@link dev.gantry.azure.compute.ResourceSkusClient#usages}). Read on every check, since usage changes as VMs
 * start and stop.
 */
@FunctionalInterface
public interface QuotaSource {
    /** The region's quotas by name in lower case ({@code cores}, {@code lowprioritycores}, a family's name). */
    Map<String, ComputeUsage> usages(String region);
}
