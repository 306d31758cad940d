package dev.gantry.backend.batch.internal.validate;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import java.util.Collection;
import java.util.EnumSet;

/** What the Batch backend can do as configured: a pure function of its accounts' facts. */
public final class BatchCapabilities {
    private BatchCapabilities() {
    }

    /**
     * Multi-node (multi-instance tasks), containers (pools with a Docker-compatible configuration), native
     * dependencies (task {@code dependsOn}), followed logs (ranged file reads), NVIDIA and AMD GPUs, evictions
     * requeued by Batch, stdout and stderr apart, each plan placed in its region's account; Spot when at least one
     * account can have it ({@link AccountFacts#canHaveSpot()}); {@code validate} refuses Spot plans for the others.
     */
    public static Capabilities of(Collection<AccountFacts> accounts) {
        return Capabilities.builder()
                .multiNode(true)
                .containers(true)
                .nativeDependencies(true)
                .followLogs(true)
                .gpuVendors(EnumSet.of(GpuVendor.NVIDIA, GpuVendor.AMD))
                .evictions(EvictionHandling.REQUEUES)
                .mergedLogs(false)
                .placesByRegion(true)
                .spot(accounts.stream().anyMatch(AccountFacts::canHaveSpot))
                .build();
    }
}
