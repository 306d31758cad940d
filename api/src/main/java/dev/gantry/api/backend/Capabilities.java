package dev.gantry.api.backend;

import dev.gantry.api.GpuVendor;
import java.util.Objects;
import java.util.Set;

/**
 * What a backend can do, so that core can refuse a plan early and choose how to drive it.
 *
 * @param multiNode runs one job across several nodes
 * @param containers runs container images
 * @param spot runs on Spot capacity and reports evictions as PREEMPTED
 * @param nativeDependencies the orchestrator can order jobs itself (core otherwise sequences them)
 * @param followLogs logs can be followed while the job runs
 * @param gpuVendors GPU vendors it can schedule
 */
public record Capabilities(boolean multiNode, boolean containers, boolean spot, boolean nativeDependencies,
                           boolean followLogs, Set<GpuVendor> gpuVendors) {
    public Capabilities {
        gpuVendors = Set.copyOf(Objects.requireNonNull(gpuVendors, "gpuVendors"));
    }
}
