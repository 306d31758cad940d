package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The container run options of a plan, one token each, by GPU vendor and node count. */
class ContainerRunOptionsTest {
    private static Plan plan(Optional<GpuSpec> gpu, int nodes) {
        Workload workload = Workload.builder("options").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(1)).command("true").build();
        VmSize size = new VmSize("Standard_X", "X", 8, 32, gpu, false, Architecture.X64, Set.of("V2"));
        return Plan.builder(workload, size).nodes(nodes).build();
    }

    @Test
    void aCpuPlanSharesTheHostsIpcOnly() {
        assertEquals(List.of("--ipc=host"), ContainerRunOptions.of(plan(Optional.empty(), 1)));
    }

    @Test
    void nvidiaTakesEveryGpuOfTheNodeAndAmdItsDevices() {
        assertEquals(List.of("--ipc=host", "--gpus=all"), ContainerRunOptions.of(plan(Optional.of(
                new GpuSpec("A100", 1, 80, GpuVendor.NVIDIA)), 1)));
        assertEquals(List.of("--ipc=host", "--device=/dev/kfd", "--device=/dev/dri", "--group-add=video",
                "--security-opt=seccomp=unconfined"), ContainerRunOptions.of(plan(Optional.of(
                new GpuSpec("MI300X", 8, 192, GpuVendor.AMD)), 1)));
    }

    @Test
    void severalNodesUseTheHostsNetwork() {
        assertEquals(List.of("--ipc=host", "--network=host"), ContainerRunOptions.of(plan(Optional.empty(), 2)));
    }
}
