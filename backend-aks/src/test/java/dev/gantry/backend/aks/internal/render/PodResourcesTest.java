package dev.gantry.backend.aks.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PodResourcesTest {
    @Test
    void theCpuShareLeavesAksReservationAndDaemonSetsNeverMoreThanAQuarter() {
        assertEquals(700, PodResources.cpuShare(1), "1000m less a quarter (250m), to 100m");
        assertEquals(3600, PodResources.cpuShare(4), "4000m less 140m reserved and 200m");
        assertEquals(23500, PodResources.cpuShare(24), "24000m less 260m reserved and 200m");
        assertEquals(95000, PodResources.cpuShare(96), "96000m less 740m reserved and 200m");
    }

    @Test
    void theMemoryShareLeavesAksReservationAndDaemonSetsNeverMoreThanAQuarter() {
        assertEquals(384, PodResources.memoryShare(512), "a quarter of half a GiB");
        assertEquals(6144, PodResources.memoryShare(8192), "a quarter of 8 GiB");
        assertEquals(32768 - 3374, PodResources.memoryShare(32768), "2350 MiB reserved and 1 GiB for daemon sets");
    }

    @Test
    void aVersionBecomesALabelValue() {
        assertEquals("0.1.0-SNAPSHOT", JobIdentity.labelValue("0.1.0-SNAPSHOT"));
        assertEquals("1.2.0-build.7", JobIdentity.labelValue("1.2.0+build.7"));
        assertEquals("v1", JobIdentity.labelValue("+v1+"));
    }
}
