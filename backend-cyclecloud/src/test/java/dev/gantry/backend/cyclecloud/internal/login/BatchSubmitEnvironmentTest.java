package dev.gantry.backend.cyclecloud.internal.login;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.testing.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The environment file a Slurm or Grid Engine job sources, for a plan as the job service hands it over. */
class BatchSubmitEnvironmentTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/cyclecloud");
    private static final VmSize ND_A100 = new VmSize("Standard_ND96asr_v4", "ND", 96, 900,
            Optional.of(new GpuSpec("A100", 8, 40, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V1", "V2"));

    private static final BackendContext CONTEXT = new BackendContext() {
        @Override
        public Path stateDirectory() {
            return Path.of("state");
        }

        @Override
        public SecretResolver secrets() {
            return ref -> new Secret("resolved-" + ref.location());
        }
    };

    private record Script(String head, String tail) implements BatchSubmit.BatchScript {
    }

    @Test
    void anInfiniBandJobsEnvironmentFileHasItsFamilysNcclVariablesAndTheWorkloadsOwnValuesWin() {
        Workload workload = Workload.builder("pretrain").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .resources(Resources.builder().nodes(2).gpus(8).interconnect(Interconnect.INFINIBAND))
                .command("torchrun", "pretrain.py").env("NCCL_SOCKET_IFNAME", "ib0")
                .secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN")).build();
        Plan plan = FabricEnvironment.applyTo(Plan.builder(workload, ND_A100).region("eastus").build());
        // Only the environment file is rendered: no login node is reached.
        BatchSubmit submit = new BatchSubmit(null, null, "Slurm", "/shared/gantry/jobs", "alice", "", CONTEXT, 29500);
        BatchSubmit.JobFiles files = submit.files(new Submission(plan, SubmitOptions.withKey("pretrain-1")),
                new Script("", ""));
        String environment = new String(files.environment(), StandardCharsets.UTF_8);
        GOLDEN.assertMatches("infiniband-job-environment", environment);
        assertEquals(List.of("NCCL_SOCKET_IFNAME=ib0"), environment.lines()
                .filter(line -> line.startsWith("NCCL_SOCKET_IFNAME=")).toList());
        FabricEnvironment.of(ND_A100).keySet().forEach(name -> assertEquals(1, environment.lines()
                .filter(line -> line.startsWith(name + "=")).count(), name));
    }
}
