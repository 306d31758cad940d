package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CapabilitiesTest {
    @Test
    void theV1FormEndsEvictionsPreemptedAndKeepsStreamsApart() {
        Capabilities v1 = new Capabilities(true, true, true, false, true, Set.of(GpuVendor.NVIDIA));
        assertEquals(EvictionHandling.ENDS_PREEMPTED, v1.evictions());
        assertFalse(v1.mergedLogs());
        assertFalse(v1.placesByRegion(), "a v1 backend runs where it is configured");
    }

    @Test
    void theBuilderStartsFromNothingAndRoundTrips() {
        Capabilities none = Capabilities.builder().build();
        assertEquals(new Capabilities(false, false, false, false, false, Set.of()), none);
        Capabilities slurm = Capabilities.builder().multiNode(true).spot(true).nativeDependencies(true)
                .followLogs(true).gpuVendors(Set.of(GpuVendor.NVIDIA, GpuVendor.AMD))
                .evictions(EvictionHandling.REQUEUES).build();
        assertEquals(slurm, slurm.toBuilder().build());
        assertEquals(EvictionHandling.REQUEUES, slurm.evictions());
        Capabilities merged = slurm.toBuilder().mergedLogs(true).containers(true).build();
        assertTrue(merged.mergedLogs());
        assertTrue(merged.containers());
        assertTrue(merged.nativeDependencies());
        Capabilities pools = merged.toBuilder().placesByRegion(true).build();
        assertTrue(pools.placesByRegion());
        assertEquals(pools, pools.toBuilder().build());
        assertFalse(new Capabilities(true, true, true, false, true, Set.of(), EvictionHandling.REQUEUES, true)
                .placesByRegion(), "the first v2 form keeps jobs where the backend is configured");
    }
}
