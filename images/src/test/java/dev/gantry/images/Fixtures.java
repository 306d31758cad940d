package dev.gantry.images;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.Optional;
import java.util.Set;

/** Real Azure sizes (facts from the VM catalog and the size docs) and small workloads for the tests. */
final class Fixtures {
    static final VmSize NC24ADS_A100_V4 = gpuSize("Standard_NC24ads_A100_v4", "NC", 24, 220,
            new GpuSpec("A100-80GB", 1, 80, GpuVendor.NVIDIA), false, Set.of("V2"));
    static final VmSize ND96ISR_H100_V5 = gpuSize("Standard_ND96isr_H100_v5", "ND", 96, 1900,
            new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA), true, Set.of("V2"));
    static final VmSize ND96ISR_MI300X_V5 = gpuSize("Standard_ND96isr_MI300X_v5", "ND", 96, 1850,
            new GpuSpec("MI300X", 8, 192, GpuVendor.AMD), true, Set.of("V2"));
    static final VmSize NV6 = gpuSize("Standard_NV6", "NV", 6, 56,
            new GpuSpec("M60", 1, 8, GpuVendor.NVIDIA), false, Set.of("V1"));
    static final VmSize D4S_V5 = cpuSize("Standard_D4s_v5", "D", 4, 16, false, Architecture.X64, Set.of("V1", "V2"));
    static final VmSize D4PS_V5 = cpuSize("Standard_D4ps_v5", "D", 4, 16, false, Architecture.ARM64, Set.of("V2"));
    static final VmSize D2_V2 = cpuSize("Standard_D2_v2", "D", 2, 7, false, Architecture.X64, Set.of("V1"));
    static final VmSize HB120RS_V3 = cpuSize("Standard_HB120rs_v3", "HB", 120, 456, true, Architecture.X64,
            Set.of("V1", "V2"));

    private Fixtures() {
    }

    static VmSize gpuSize(String name, String family, int vcpus, double memory, GpuSpec gpu, boolean rdma,
            Set<String> generations) {
        return new VmSize(name, family, vcpus, memory, Optional.of(gpu), rdma, Architecture.X64, generations);
    }

    static VmSize cpuSize(String name, String family, int vcpus, double memory, boolean rdma, Architecture arch,
            Set<String> generations) {
        return new VmSize(name, family, vcpus, memory, Optional.empty(), rdma, arch, generations);
    }

    static Workload workload() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .command("python", "train.py").build();
    }

    static Workload multiNode(int nodes, Interconnect interconnect) {
        return workload().toBuilder()
                .resources(Resources.builder().nodes(nodes).interconnect(interconnect).build()).build();
    }
}
