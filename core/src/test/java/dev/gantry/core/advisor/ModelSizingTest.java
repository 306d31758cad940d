package dev.gantry.core.advisor;

import static dev.gantry.core.advisor.AdvisorRulesTest.plan;
import static dev.gantry.core.advisor.AdvisorRulesTest.reasons;
import static dev.gantry.core.advisor.AdvisorRulesTest.resources;
import static dev.gantry.core.advisor.AdvisorRulesTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Precision;
import org.junit.jupiter.api.Test;

/** Rule M1: GPU memory, GPUs per node and nodes from the model's size. */
class ModelSizingTest {
    private static final double GIB = 1024d * 1024 * 1024;

    @Test
    void inferenceNeedsWeightsTimesOnePointTwo() {
        assertEquals(7e9 * 2 * 1.2 / GIB, ModelSizing.neededGib(new ModelSize(7e9, Precision.BF16),
                Phase.INFERENCE), 1e-9);
        assertEquals(7e9 * 0.5 * 1.2 / GIB, ModelSizing.neededGib(new ModelSize(7e9, Precision.INT4),
                Phase.INFERENCE), 1e-9);
    }

    @Test
    void trainingNeedsSixteenBytesPerParameterTimesOnePointTwoFive() {
        assertEquals(7e9 * 16 * 1.25 / GIB, ModelSizing.neededGib(new ModelSize(7e9, Precision.BF16),
                Phase.TRAINING), 1e-9);
    }

    @Test
    void smallestCountPerNodeThatFitsThenMoreNodes() {
        assertEquals(1, ModelSizing.gpusPerNode(15, 16, 1));
        assertEquals(2, ModelSizing.gpusPerNode(17, 16, 1));
        assertEquals(4, ModelSizing.gpusPerNode(33, 16, 1));
        assertEquals(8, ModelSizing.gpusPerNode(65, 16, 1));
        assertEquals(8, ModelSizing.gpusPerNode(1000, 16, 1));
        assertEquals(8, ModelSizing.nodesFor(1000, 16, 8, 1));
        assertEquals(2, ModelSizing.nodesFor(10, 16, 8, 2));
    }

    @Test
    void aSevenBillionModelServesFromOneSixteenGibGpu() {
        Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(7e9, Precision.BF16)).build());
        assertEquals("Standard_NC4as_T4_v3", plan.vmSize().name());
        assertTrue(reasons(plan, "M1").contains("7e9 parameters × 2 bytes (bf16) × 1.2"), reasons(plan, "M1"));
        assertTrue(reasons(plan, "M1").contains("= 15.6 GiB"), reasons(plan, "M1"));
    }

    @Test
    void aSeventyBillionModelServesFromTwoEightyGibGpus() {
        Plan plan = plan(workload(Phase.INFERENCE, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.BF16)).build());
        assertEquals("Standard_NC48ads_A100_v4", plan.vmSize().name());
        assertEquals(1, plan.nodes());
        assertTrue(reasons(plan, "R3").contains("160 GiB >= 156.5 GiB needed"), reasons(plan, "R3"));
    }

    @Test
    void trainingABigModelAddsNodesOfEightGpus() {
        // 70e9 × 20 bytes = 1303.9 GiB: three nodes of 8 × 80 GiB on NVIDIA, one node of 8 × 192 GiB on AMD.
        Plan nvidia = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.BF16))
                .resources(resources().gpuVendor(GpuVendor.NVIDIA).build()).build());
        assertEquals("Standard_ND96amsr_A100_v4", nvidia.vmSize().name());
        assertEquals(3, nvidia.nodes());
        assertEquals(3 * 32.77, nvidia.pricePerHour().total(), 1e-9);
        Plan any = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.BF16)).build());
        assertEquals("Standard_ND96isr_MI300X_v5", any.vmSize().name());
        assertEquals(1, any.nodes());
    }

    @Test
    void warnsWhenAnExplicitRequestIsFarAboveOrBelowWhatTheModelNeeds() {
        Plan above = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(1e9, Precision.BF16))
                .resources(resources().gpus(8).gpuVendor(GpuVendor.NVIDIA).build()).build());
        assertTrue(above.warnings().stream().anyMatch(w -> w.contains("far above")), above.warnings().toString());
        Plan below = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.BF16))
                .resources(resources().gpus(8).gpuVendor(GpuVendor.NVIDIA).build()).build());
        assertEquals(1, below.nodes());
        assertTrue(below.warnings().stream().anyMatch(w -> w.contains("below what the model needs")),
                below.warnings().toString());
        Plan fits = plan(workload(Phase.TRAINING, ModelClass.GENERATIVE)
                .modelSize(new ModelSize(30e9, Precision.BF16))
                .resources(resources().gpus(8).gpuVendor(GpuVendor.NVIDIA).nodes(2).build()).build());
        assertTrue(fits.warnings().isEmpty(), fits.warnings().toString());
    }
}
