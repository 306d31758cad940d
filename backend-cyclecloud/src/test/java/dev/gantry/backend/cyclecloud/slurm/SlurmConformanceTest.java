package dev.gantry.backend.cyclecloud.slurm;

import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;

/**
 * The whole conformance kit against the real Slurm test cluster, over SSH to its login node: Spot plans, so an
 * eviction is requeued by Slurm and the job completes on its second run.
 */
class SlurmConformanceTest extends BackendConformanceTest {
    @Override
    protected BackendFixture fixture() {
        return new SlurmKitFixture(true);
    }
}
