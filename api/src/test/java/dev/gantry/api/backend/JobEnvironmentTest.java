package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.Architecture;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobEnvironmentTest {
    private static final VmSize ND = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900,
            Optional.of(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));

    @Test
    void everyNodeOfATwoNodeJobGetsTheWholeContract() {
        Workload workload = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("python", "train.py")
                .resources(Resources.builder().gpus(8).nodes(2).build())
                .checkpoint(new Checkpoint("/mnt/ckpt", Duration.ofMinutes(10))).build();
        Plan plan = Plan.builder(workload, ND).build();
        Map<String, String> env = JobEnvironment.of("job-42", plan, SubmitOptions.withKey("k").attempt(2)
                .resuming(true), new JobEnvironment.Rendezvous(1, "10.0.0.4", 29500));
        assertEquals(List.copyOf(env.keySet()), JobEnvironment.NAMES, "every name, in the documented order");
        assertEquals(Map.ofEntries(
                Map.entry("GANTRY_JOB_ID", "job-42"),
                Map.entry("GANTRY_ATTEMPT", "2"),
                Map.entry("GANTRY_RESUME", "1"),
                Map.entry("GANTRY_CHECKPOINT_DIR", "/mnt/ckpt"),
                Map.entry("GANTRY_NODE_RANK", "1"),
                Map.entry("GANTRY_NUM_NODES", "2"),
                Map.entry("GANTRY_GPUS_PER_NODE", "8"),
                Map.entry("MASTER_ADDR", "10.0.0.4"),
                Map.entry("MASTER_PORT", "29500"),
                Map.entry("WORLD_SIZE", "2"),
                Map.entry("NODE_RANK", "1"),
                Map.entry("RANK", "1"),
                Map.entry("LOCAL_RANK", "0")), env);
    }

    @Test
    void aOneNodeCpuJobWithoutCheckpointMeetsItself() {
        Workload workload = Workload.builder("serve").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true").build();
        VmSize cpu = new VmSize("Standard_F4s_v2", "F", 4, 8, Optional.empty(), false, Architecture.X64,
                Set.of("V2"));
        Map<String, String> env = JobEnvironment.of("j", Plan.builder(workload, cpu).build(),
                SubmitOptions.withKey("k"), JobEnvironment.Rendezvous.singleNode());
        assertFalse(env.containsKey(JobEnvironment.CHECKPOINT_DIR));
        assertEquals("1", env.get(JobEnvironment.ATTEMPT));
        assertEquals("0", env.get(JobEnvironment.RESUME));
        assertEquals("0", env.get(JobEnvironment.GPUS_PER_NODE));
        assertEquals("127.0.0.1", env.get(JobEnvironment.MASTER_ADDR));
        assertEquals("29500", env.get(JobEnvironment.MASTER_PORT));
        assertEquals("1", env.get(JobEnvironment.WORLD_SIZE));
    }

    @Test
    void aRankOutsideThePlanIsRefused() {
        Workload workload = Workload.builder("serve").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true").build();
        Plan plan = Plan.builder(workload, ND).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobEnvironment.of("j", plan,
                SubmitOptions.withKey("k"), new JobEnvironment.Rendezvous(1, "h", 1)));
        assertEquals("nodeRank 1 is outside a plan of 1 node(s)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JobEnvironment.Rendezvous(0, "h", 0));
        assertThrows(IllegalArgumentException.class, () -> new JobEnvironment.Rendezvous(-1, "h", 1));
        assertThrows(IllegalArgumentException.class, () -> new JobEnvironment.Rendezvous(0, " ", 1));
    }

    @Test
    void theContractNamesCannotBeSetByAWorkload() {
        for (String name : JobEnvironment.NAMES) {
            if (name.startsWith(Workload.RESERVED_ENV_PREFIX)) {
                String reserved = name;
                assertThrows(RuntimeException.class,
                        () -> Workload.builder("w").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true").env(reserved, "x").build(), reserved);
            }
        }
    }
}
