package dev.gantry.hosts.probe;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.Optional;
import java.util.Set;

/** Plans for the sizes the sample hosts stand for, with catalog figures. */
final class Plans {
    static final VmSize ND_H100_V5 = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900,
            Optional.of(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
    static final VmSize NV_A10_V5 = new VmSize("Standard_NV36ads_A10_v5", "NV", 36, 440,
            Optional.of(new GpuSpec("A10", 1, 24, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    static final VmSize ND_MI300X_V5 = new VmSize("Standard_ND96isr_MI300X_v5", "ND", 96, 1850,
            Optional.of(new GpuSpec("MI300X", 8, 192, GpuVendor.AMD)), true, Architecture.X64, Set.of("V2"));
    static final VmSize D4S_V5 = new VmSize("Standard_D4s_v5", "D", 4, 16, Optional.empty(), false,
            Architecture.X64, Set.of("V1", "V2"));

    private Plans() {
    }

    static Plan plan(VmSize size, Resources resources, int nodes) {
        Workload workload = Workload.builder("train").phase(Phase.TRAINING)
                .model(size.hasGpu() ? ModelClass.GENERATIVE : ModelClass.SMALL).resources(resources)
                .container("nvcr.io/nvidia/pytorch:24.05-py3").command("python", "train.py").build();
        return Plan.builder(workload, size).nodes(nodes).build();
    }

    static Plan plan(VmSize size) {
        return plan(size, Resources.defaults(), 1);
    }
}
