package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.testing.GoldenFiles;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FabricEnvironmentTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/fabric");
    private static final VmSize H100 = gpuSize("Standard_ND96isr_H100_v5", "H100", GpuVendor.NVIDIA, true);

    /**
     * Every size with InfiniBand in Gantry's catalog (size-facts.csv and the Azure snapshot), and sizes without it
     * whose names are close to one that has it.
     */
    private static final List<VmSize> SIZES = List.of(
            gpuSize("Standard_ND96asr_v4", "A100", GpuVendor.NVIDIA, true),
            gpuSize("Standard_ND96amsr_A100_v4", "A100-80GB", GpuVendor.NVIDIA, true),
            H100,
            gpuSize("Standard_ND96isr_H200_v5", "H200", GpuVendor.NVIDIA, true),
            gpuSize("Standard_ND96isr_MI300X_v5", "MI300X", GpuVendor.AMD, true),
            gpuSize("Standard_ND40rs_v2", "V100-32GB", GpuVendor.NVIDIA, true),
            gpuSize("Standard_NC24rs_v3", "V100", GpuVendor.NVIDIA, true),
            gpuSize("Standard_NC24r", "K80", GpuVendor.NVIDIA, true),
            cpuSize("Standard_HB120rs_v3", true),
            cpuSize("Standard_HB176rs_v4", true),
            cpuSize("Standard_HC44rs", true),
            cpuSize("Standard_HX176rs", true),
            gpuSize("Standard_ND40s_v3", "V100-32GB", GpuVendor.NVIDIA, false),
            gpuSize("Standard_NC80adis_H100_v5", "H100-NVL", GpuVendor.NVIDIA, false),
            gpuSize("Standard_NC96ads_A100_v4", "A100-80GB", GpuVendor.NVIDIA, false),
            cpuSize("Standard_HB176s_v4", false));

    private static VmSize gpuSize(String name, String model, GpuVendor vendor, boolean rdma) {
        return new VmSize(name, name.substring(9, 11), 96, 1900, Optional.of(new GpuSpec(model, 8, 80, vendor)),
                rdma, Architecture.X64, Set.of("V2"));
    }

    private static VmSize cpuSize(String name, boolean rdma) {
        return new VmSize(name, name.substring(9, 11), 120, 448, Optional.empty(), rdma, Architecture.X64,
                Set.of("V2"));
    }

    private static Workload.Builder training() {
        return Workload.builder("pretrain").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .command("torchrun", "pretrain.py");
    }

    private static Plan plan(Workload workload, VmSize size) {
        return Plan.builder(workload, size).region("eastus").build();
    }

    @Test
    void everySizesEnvironmentWithItsSources() {
        StringBuilder text = new StringBuilder();
        for (VmSize size : SIZES) {
            text.append(size.name()).append(size.rdma() ? "" : " (no InfiniBand)").append(": ");
            Optional<FabricEnvironment.Family> family = FabricEnvironment.family(size);
            text.append(family.map(FabricEnvironment.Family::name).orElse("none")).append('\n');
            family.ifPresent(f -> f.variables().forEach(variable -> text.append("  ").append(variable.name())
                    .append('=').append(variable.value()).append("  # ").append(variable.source()).append('\n')));
        }
        GOLDEN.assertMatches("environments.txt", text.toString());
    }

    @Test
    void everyValueCitesOneOfMicrosoftsPinnedSources() {
        for (VmSize size : SIZES) {
            for (FabricEnvironment.Variable variable : FabricEnvironment.family(size)
                    .map(FabricEnvironment.Family::variables).orElse(List.of())) {
                assertTrue(variable.source().matches("https://github\\.com/Azure/[a-z-]+/blob/[0-9a-f]{40}/.+"),
                        size.name() + " " + variable.name() + ": " + variable.source());
            }
        }
    }

    @Test
    void aTwoNodeRdmaPlansWorkloadGetsTheVariablesAfterItsOwn() {
        Workload workload = training().env("HF_HOME", "/data/hf")
                .resources(Resources.builder().nodes(2).gpus(8).build()).build();
        Plan applied = FabricEnvironment.applyTo(plan(workload, H100));
        assertEquals(List.of("HF_HOME", "NCCL_TOPO_FILE", "NCCL_IB_PCI_RELAXED_ORDERING", "NCCL_IGNORE_CPU_AFFINITY",
                "NCCL_SOCKET_IFNAME", "CUDA_DEVICE_ORDER", "UCX_IB_PCI_RELAXED_ORDERING"),
                List.copyOf(applied.workload().env().keySet()));
        assertEquals("/opt/microsoft/ndv5-topo.xml", applied.workload().env().get("NCCL_TOPO_FILE"));
        assertEquals(2, applied.nodes(), "nothing else of the plan changes");
        assertEquals(H100, applied.vmSize());
    }

    @Test
    void aVariableTheWorkloadSetsWinsWhetherInEnvOrInSecrets() {
        Workload workload = training().env("NCCL_SOCKET_IFNAME", "ib0").env("NCCL_TOPO_FILE", "/etc/my-topo.xml")
                .secret("CUDA_DEVICE_ORDER", SecretRef.parse("env:MY_ORDER")).build();
        Map<String, String> env = FabricEnvironment.applyTo(plan(workload, H100)).workload().env();
        assertEquals("ib0", env.get("NCCL_SOCKET_IFNAME"));
        assertEquals("/etc/my-topo.xml", env.get("NCCL_TOPO_FILE"));
        assertTrue(!env.containsKey("CUDA_DEVICE_ORDER"), "a secret of that name stays the workload's: " + env);
        assertEquals("1", env.get("NCCL_IB_PCI_RELAXED_ORDERING"), "the rest is added");
    }

    @Test
    void aSingleNodePlanOnAnRdmaSizeGetsItTooAsTheImageConfiguresEveryVmOfTheSize() {
        Plan applied = FabricEnvironment.applyTo(plan(training().build(), H100));
        assertEquals(1, applied.nodes());
        assertEquals(FabricEnvironment.of(H100), Map.copyOf(applied.workload().env()));
    }

    @Test
    void aPlanWithoutInfiniBandOrOfAnUndocumentedFamilyIsReturnedAsItIs() {
        for (VmSize size : List.of(gpuSize("Standard_ND40s_v3", "V100-32GB", GpuVendor.NVIDIA, false),
                cpuSize("Standard_HB176rs_v4", true))) {
            Plan plan = plan(training().env("A", "1").build(), size);
            assertSame(plan, FabricEnvironment.applyTo(plan), size.name());
            assertEquals(Map.of(), FabricEnvironment.of(size), size.name());
        }
    }

    @Test
    void aPlanWhoseWorkloadSetsEveryVariableIsReturnedAsItIs() {
        Workload.Builder builder = training();
        FabricEnvironment.of(H100).forEach((name, value) -> builder.env(name, "mine"));
        Plan plan = plan(builder.build(), H100);
        assertSame(plan, FabricEnvironment.applyTo(plan));
    }

    @Test
    void theSizeNameMatchesInAnyCase() {
        VmSize lower = gpuSize("standard_nd96isr_h200_v5", "H200", GpuVendor.NVIDIA, true);
        assertEquals("ND H100 v5 / ND H200 v5", FabricEnvironment.family(lower).orElseThrow().name());
    }

    @Test
    void aVariableNeedsANameAndASource() {
        assertThrows(IllegalArgumentException.class, () -> new FabricEnvironment.Variable(" ", "1", "x"));
        assertThrows(IllegalArgumentException.class, () -> new FabricEnvironment.Variable("A", "1", ""));
        assertThrows(NullPointerException.class, () -> FabricEnvironment.applyTo(null));
    }
}
