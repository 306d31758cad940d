package dev.gantry.backend.cyclecloud.gridengine;

import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;

/**
 * The whole conformance kit against the test cluster's real Grid Engine (Son of Grid Engine 8.1.9), over SSH to its
 * login node: single-host jobs; the multi-node and container cases are skipped by capability.
 */
class GridEngineConformanceTest extends BackendConformanceTest {
    @Override
    protected BackendFixture fixture() {
        return new GridEngineKitFixture();
    }
}
