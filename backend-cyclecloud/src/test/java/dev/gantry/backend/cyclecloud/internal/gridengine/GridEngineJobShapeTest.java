package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GridEngineJobShapeTest {
    private static final String KEY = "backends.cyclecloud.multiNodeParallelEnvironment";

    private static CycleCloudSettings settings(String multiNodePe) {
        Map<String, String> values = new HashMap<>(Map.of("scheduler", "gridengine", "address", "login.example.com",
                "user", "azureuser", "identityFile", "~/.ssh/id_ed25519", "workDir", "/shared/gantry"));
        if (multiNodePe != null) {
            values.put("multiNodeParallelEnvironment", multiNodePe);
        }
        return CycleCloudSettings.bind(new BackendConfig("cyclecloud", values));
    }

    /** A cluster with smpslots ($pe_slots) and the parallel environments given, with the complexes given. */
    private static GridEngineFacts cluster(List<ParallelEnvironmentRule> rules, String... complexes) {
        StringBuilder probe = new StringBuilder("=queues\nall.q\n=queues-status 0\n=pes\nsmpslots\n");
        rules.forEach(r -> probe.append(r.name()).append('\n'));
        probe.append("=pe-rules\nsmpslots $pe_slots FALSE\n");
        rules.forEach(r -> probe.append(r.name()).append(' ').append(r.allocationRule()).append(' ')
                .append(r.controlSlaves() ? "TRUE" : "FALSE").append('\n'));
        probe.append("=complexes\nh_vmem\ngpu\n");
        for (String complex : complexes) {
            probe.append(complex).append('\n');
        }
        probe.append("=hosts\nexec-1\nexec-2\n=workdir\nwritable\n");
        return GridEngineFacts.parse(probe.toString());
    }

    private static Plan plan(int nodes, int vcpus, int gpus, boolean rdma) {
        Resources.Builder resources = Resources.builder().nodes(nodes).vcpus(vcpus).memoryGib(8);
        if (gpus > 0) {
            resources.gpus(gpus);
        }
        Workload workload = Workload.builder("shape").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("true").resources(resources.build()).build();
        VmSize size = new VmSize("Standard_X", "X", 16, 64, gpus > 0 ? Optional.of(new GpuSpec("H100", 8, 80,
                GpuVendor.NVIDIA)) : Optional.empty(), rdma, Architecture.X64, Set.of("V2"));
        return Plan.builder(workload, size).nodes(nodes).build();
    }

    private static List<String> problems(GridEngineJobShape.Result result) {
        assertTrue(result.shape().isEmpty(), "a plan with problems has no shape");
        return result.problems().stream().map(Problem::toString).toList();
    }

    @Test
    void theFactsCarryEachParallelEnvironmentsRule() {
        GridEngineFacts facts = cluster(List.of(new ParallelEnvironmentRule("onepernode", "1", true)));
        assertEquals(Set.of("smpslots", "onepernode"), facts.parallelEnvironments());
        assertEquals(new ParallelEnvironmentRule("onepernode", "1", true), facts.rules().get("onepernode"));
        assertEquals(OptionalInt.of(1), facts.rules().get("onepernode").slotsPerHost());
        assertEquals(OptionalInt.empty(), facts.rules().get("smpslots").slotsPerHost());
        assertEquals(OptionalInt.of(4), new ParallelEnvironmentRule("four", "4", true).slotsPerHost());
        assertEquals(OptionalInt.empty(), new ParallelEnvironmentRule("fill", "$fill_up", true).slotsPerHost());
        assertEquals(OptionalInt.empty(), new ParallelEnvironmentRule("zero", "0", true).slotsPerHost());
    }

    @Test
    void oneHostTakesItsVcpusAsSlotsOfTheSmpEnvironment() {
        GridEngineJobShape shape = GridEngineJobShape.of(plan(1, 4, 0, false), settings(null), cluster(List.of()))
                .orElseThrow();
        assertEquals(new GridEngineJobShape(1, 4, 4, Optional.of("smpslots"), 2048, 0, false), shape);
    }

    @Test
    void twoHostsTakeTheFixedRuleAndDivideMemoryAndGpusPerSlot() {
        GridEngineFacts facts = cluster(List.of(new ParallelEnvironmentRule("four", "4", true)), "exclusive");
        GridEngineJobShape shape = GridEngineJobShape.of(plan(2, 4, 8, false), settings("four"), facts)
                .orElseThrow();
        assertEquals(new GridEngineJobShape(2, 8, 4, Optional.of("four"), 2048, 2, false), shape);
    }

    @Test
    void moreVcpusThanTheRuleGrantsOrInfinibandHoldWholeHosts() {
        GridEngineFacts facts = cluster(List.of(new ParallelEnvironmentRule("onepernode", "1", true)), "exclusive");
        assertEquals(new GridEngineJobShape(2, 2, 1, Optional.of("onepernode"), 8192, 0, true),
                GridEngineJobShape.of(plan(2, 4, 0, false), settings("onepernode"), facts).orElseThrow());
        assertEquals(new GridEngineJobShape(2, 2, 1, Optional.of("onepernode"), 8192, 0, true),
                GridEngineJobShape.of(plan(2, 1, 0, true), settings("onepernode"), facts).orElseThrow());
        assertEquals(new GridEngineJobShape(2, 2, 1, Optional.of("onepernode"), 8192, 0, false),
                GridEngineJobShape.of(plan(2, 1, 0, false), settings("onepernode"), facts).orElseThrow());
    }

    @Test
    void severalHostsWithoutTheSettingAreRefusedWithHowToMakeOne() {
        assertEquals(List.of(KEY + ": the plan spans 2 hosts, and Grid Engine runs a job on several hosts only "
                + "through a parallel environment that grants a fixed number of slots on each; none is set: create one "
                + "(qconf -ap NAME with allocation_rule 1, control_slaves TRUE and job_is_first_task TRUE, then add "
                + "it to the queue's pe_list) and set multiNodeParallelEnvironment to it"),
                problems(GridEngineJobShape.of(plan(2, 1, 0, false), settings(null), cluster(List.of()))));
    }

    @Test
    void aParallelEnvironmentTheClusterLacksIsNamedWithWhatItHas() {
        List<String> problems = problems(GridEngineJobShape.of(plan(2, 1, 0, false), settings("mpi"),
                cluster(List.of())));
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).startsWith(KEY + ": the cluster has no parallel environment mpi (it has "
                + "smpslots): create one"), problems.get(0));
    }

    @Test
    void aRuleThatDoesNotPlaceOneRankPerHostIsRefused() {
        assertEquals(List.of(KEY + ": the parallel environment smpslots allocates slots by $pe_slots, which does "
                + "not place 2 ranks on 2 hosts (it keeps every slot on one host); give it a fixed number of slots "
                + "per host (qconf -mp smpslots: allocation_rule 1), or create one (qconf -ap NAME with "
                + "allocation_rule 1, control_slaves TRUE and job_is_first_task TRUE, then add it to the queue's "
                + "pe_list) and set multiNodeParallelEnvironment to it", KEY + ": the parallel environment smpslots "
                + "does not let a job start its ranks on its other hosts (control_slaves FALSE); set control_slaves "
                + "TRUE (qconf -mp smpslots)"),
                problems(GridEngineJobShape.of(plan(2, 1, 0, false), settings("smpslots"), cluster(List.of()))));
        List<String> fillUp = problems(GridEngineJobShape.of(plan(2, 1, 0, false), settings("mpi"),
                cluster(List.of(new ParallelEnvironmentRule("mpi", "$fill_up", true)))));
        assertEquals(1, fillUp.size());
        assertTrue(fillUp.get(0).contains("allocates slots by $fill_up, which does not place 2 ranks on 2 hosts "
                + "(it may take more hosts or fewer)"), fillUp.get(0));
    }

    @Test
    void wholeHostsNeedTheExclusiveComplex() {
        List<String> problems = problems(GridEngineJobShape.of(plan(2, 4, 0, false), settings("onepernode"),
                cluster(List.of(new ParallelEnvironmentRule("onepernode", "1", true)))));
        assertEquals(List.of(KEY + ": the plan needs whole hosts (4 vCPUs on each, and onepernode grants 1 slot(s) "
                + "per host), and the cluster defines no complex exclusive to ask for them; define it (qconf -mc: "
                + "exclusive excl BOOL EXCL, and exclusive=true on each host), or use a parallel environment whose "
                + "allocation rule is the vCPUs of a host"), problems);
    }

    @Test
    void gpusThatDoNotDivideAmongAHostsSlotsAreRefused() {
        List<String> problems = problems(GridEngineJobShape.of(plan(2, 4, 2, false), settings("four"),
                cluster(List.of(new ParallelEnvironmentRule("four", "4", true)))));
        assertEquals(List.of(KEY + ": the plan needs 2 GPU(s) on each host, which do not divide among the 4 slots "
                + "per host that four grants; use a parallel environment with allocation_rule 1"), problems);
    }
}
