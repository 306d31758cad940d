package dev.gantry.backend.manual.internal.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.hosts.MachineFacts;
import dev.gantry.hosts.internal.MemInfo;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanCheckTest {
    private static final MachineFacts LAPTOP = new MachineFacts(8, OptionalDouble.of(16), 0);
    private static final Workload TRAIN = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL)
            .command("python", "train.py").build();

    private static VmSize size(int vcpus, double memory, int gpus) {
        return new VmSize("Standard_X", "X", vcpus, memory,
                gpus == 0 ? Optional.empty() : Optional.of(new GpuSpec("H100", gpus, 80, GpuVendor.NVIDIA)), false,
                Architecture.X64, Set.of("V2"));
    }

    @Test
    void planThatFitsHasNoProblems() {
        assertEquals(List.of(), PlanCheck.problems(Plan.builder(TRAIN, size(8, 16, 0)).build(), LAPTOP));
    }

    @Test
    void reportsEveryProblemWithItsPath() {
        Workload w = TRAIN.toBuilder().container("nvcr.io/nvidia/pytorch:24.05-py3").build();
        Plan plan = Plan.builder(w, size(96, 1900, 8)).nodes(2).build();
        List<Problem> problems = PlanCheck.problems(plan, LAPTOP);
        assertEquals(List.of("resources.nodes", "resources.gpus", "resources.vcpus", "resources.memoryGib"),
                problems.stream().map(Problem::path).toList());
        assertEquals("the local transport runs one node, the plan asks for 2; use nodes: 1, or a backend that runs "
                + "multi-node jobs (cyclecloud, batch, aks)", problems.get(0).message());
        assertEquals("the plan needs 8 GPU(s) of size Standard_X but this machine has 0 (counted with nvidia-smi -L); "
                + "lower gpus or run on a machine with enough GPUs", problems.get(1).message());
        assertEquals("the plan's size Standard_X has 1900 GiB of memory but this machine has 16 GiB; choose a smaller "
                + "size or lower memoryGib", problems.get(3).message());
    }

    @Test
    void unknownMemorySkipsTheMemoryCheckOnly() {
        MachineFacts noMeminfo = new MachineFacts(2, OptionalDouble.empty(), 1);
        Plan plan = Plan.builder(TRAIN, size(2, 4000, 1)).build();
        assertEquals(List.of(), PlanCheck.problems(plan, noMeminfo));
    }

    @Test
    void readsMemTotal() {
        assertEquals(OptionalDouble.of(16.0), MemInfo.totalGib(List.of("MemFree: 1 kB", "MemTotal: 16777216 kB")));
        assertEquals(OptionalDouble.empty(), MemInfo.totalGib(List.of("MemFree: 1 kB")));
    }
}
