package dev.gantry.backend.aks.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.Kubeconfig;
import dev.gantry.backend.aks.internal.pools.TargetPool;
import dev.gantry.testing.GoldenFiles;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobManifestTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/manifests");
    /** A container's environment alone, not a manifest (ObjectValidationTest posts every one under manifests/). */
    private static final GoldenFiles ENVIRONMENTS = GoldenFiles.in("golden/environments");
    private static final String VERSION = "0.1.0-SNAPSHOT";
    private static final VmSize A100 = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220,
            Optional.of(new GpuSpec("A100-80GB", 1, 80, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    private static final VmSize H100 = new VmSize("Standard_ND96isr_H100_v5", "ND", 96, 1900,
            Optional.of(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
    private static final VmSize T4 = new VmSize("Standard_NC4as_T4_v3", "NC", 4, 28,
            Optional.of(new GpuSpec("T4", 1, 16, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    private static final VmSize D8 = new VmSize("Standard_D8s_v5", "D", 8, 32, Optional.empty(), false,
            Architecture.X64, Set.of("V1", "V2"));
    private static final VmSize TCK_SMALL = new VmSize("tck-small", "tck", 1, 0.5, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));
    /** The uid the API server gave the created Job, as the Service and Secret refer to it. */
    private static final String JOB_UID = "5f0c1d7e-2b9a-4c8e-9d3f-6a1b2c3d4e5f";

    @TempDir
    Path home;

    private AksSettings settings(String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        values.put("namespace", "ml-jobs");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return AksSettings.bind(new BackendConfig("aks", values), new Kubeconfig.Environment(Optional.empty(), home,
                true));
    }

    private static String yaml(Object object) {
        return Serialization.asYaml(object);
    }

    private static OwnerReference created(Job job) {
        return JobManifest.ownerReference(new JobBuilder(job).editMetadata().withUid(JOB_UID).endMetadata().build());
    }

    private static Workload.Builder training(String name) {
        return Workload.builder(name).phase(Phase.TRAINING).model(ModelClass.GENERATIVE);
    }

    @Test
    void singleNodeGpuTrainingWithCheckpointAndSecrets() {
        Workload workload = training("llama-ft").container("nvcr.io/nvidia/pytorch:24.05-py3")
                .command("torchrun", "--nnodes=$(GANTRY_NUM_NODES)", "--nproc_per_node=$GANTRY_GPUS_PER_NODE",
                        "train.py", "--resume-from=${GANTRY_CHECKPOINT_DIR}")
                .workingDir("/workspace").env("HF_HOME", "/data/hf").env("PRICE", "$5")
                .secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .secret("WANDB_API_KEY", SecretRef.parse("https://mlvault.vault.azure.net/secrets/wandb"))
                .checkpoint(new Checkpoint("/checkpoints/llama-ft", Duration.ofMinutes(30))).build();
        Plan plan = Plan.builder(workload, A100).region("westus2").build();
        SubmitOptions options = new SubmitOptions("llama-ft.train.Attempt-1", 1, false, List.of());
        AksSettings settings = settings("checkpointClaim", "checkpoints", "imagePullSecrets", "acr-pull",
                "serviceAccount", "gantry-runner", "nodePools", "Standard_NC24ads_A100_v4=gpua100");
        JobIdentity job = JobIdentity.of(plan, options, settings.namespace(), VERSION);
        Job manifest = JobManifest.render(job, plan, options, settings);
        GOLDEN.assertMatches("single-node-gpu-training.yaml", yaml(manifest));

        Map<String, Secret> values = new LinkedHashMap<>();
        values.put("HF_TOKEN", new Secret("hf_not-a-real-token"));
        values.put("WANDB_API_KEY", new Secret("wandb-not-a-real-key"));
        GOLDEN.assertMatches("single-node-gpu-training-secret.yaml", yaml(EnvSecret.render(job, values,
                created(manifest))));
        String jobYaml = yaml(manifest);
        assertFalse(jobYaml.contains("not-a-real"), "no secret value in the Job");
        assertFalse(jobYaml.contains("bm90LWEtcmVhbC"), "not even encoded");
        assertEquals(Boolean.TRUE, manifest.getSpec().getSuspend(), "suspended until its Secret is in place");
    }

    @Test
    void twoNodeInfiniBandTraining() {
        Workload workload = training("llama-pretrain").container("nvcr.io/nvidia/pytorch:24.05-py3")
                .resources(Resources.builder().nodes(2).gpus(8).interconnect(dev.gantry.api.Interconnect.INFINIBAND))
                .command("torchrun", "--nnodes=2", "--node_rank=$NODE_RANK", "--master_addr=$MASTER_ADDR",
                        "pretrain.py")
                .checkpoint(new Checkpoint("/checkpoints/pretrain/", Duration.ofMinutes(20))).build();
        Plan plan = Plan.builder(workload, H100).region("eastus").build();
        SubmitOptions options = new SubmitOptions("pretrain-step-1", 2, true, List.of());
        AksSettings settings = settings("rdmaResource", "rdma/ib", "checkpointClaim", "checkpoints", "shmSize",
                "64Gi", "masterPort", "29400", "gpuTolerations", "sku=gpu:NoSchedule");
        JobIdentity job = JobIdentity.of(plan, options, settings.namespace(), VERSION);
        Job manifest = JobManifest.render(job, plan, options, settings);
        GOLDEN.assertMatches("two-node-infiniband-training.yaml", yaml(manifest));
        GOLDEN.assertMatches("two-node-infiniband-training-service.yaml",
                yaml(RankService.render(job, settings.masterPort(), created(manifest))));
        assertEquals(null, manifest.getSpec().getSuspend(), "no Secret to wait for");
    }

    @Test
    void anInfiniBandPlanAsTheJobServiceHandsItOverCarriesItsNcclEnvironmentAndTheWorkloadsOwnValue() {
        Workload workload = training("llama-pretrain").container("nvcr.io/nvidia/pytorch:24.05-py3")
                .resources(Resources.builder().nodes(2).gpus(8).interconnect(dev.gantry.api.Interconnect.INFINIBAND))
                .command("torchrun", "pretrain.py").env("NCCL_SOCKET_IFNAME", "ib0").build();
        Plan plan = FabricEnvironment.applyTo(Plan.builder(workload, H100).region("eastus").build());
        SubmitOptions options = new SubmitOptions("pretrain-step-1", 1, false, List.of());
        AksSettings settings = settings("rdmaResource", "rdma/ib");
        Job manifest = JobManifest.render(JobIdentity.of(plan, options, settings.namespace(), VERSION), plan, options,
                settings);
        List<EnvVar> env = manifest.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        ENVIRONMENTS.assertMatches("two-node-infiniband-training-env.yaml", yaml(env));
        Map<String, String> values = new LinkedHashMap<>();
        env.forEach(variable -> assertEquals(null, values.put(variable.getName(), variable.getValue()),
                "set once: " + variable.getName()));
        assertEquals("ib0", values.get("NCCL_SOCKET_IFNAME"));
        FabricEnvironment.of(H100).forEach((name, value) -> {
            if (!name.equals("NCCL_SOCKET_IFNAME")) {
                assertEquals(value, values.get(name), name);
            }
        });
    }

    @Test
    void spotInferenceAdmittedByKueue() {
        Workload workload = Workload.builder("chat-serve").phase(Phase.INFERENCE).model(ModelClass.GENERATIVE)
                .container("vllm/vllm-openai:v0.6.3")
                .command("python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "mistralai/Mistral-7B-v0.1")
                .build();
        Plan plan = Plan.builder(workload, T4).spot(true).build();
        SubmitOptions options = SubmitOptions.withKey("chat-serve-1");
        AksSettings settings = settings("kueueQueue", "team-a", "nodeLossToleration", "1m", "ttlAfterFinished",
                "1h");
        Job manifest = JobManifest.render(JobIdentity.of(plan, options, settings.namespace(), VERSION), plan, options,
                settings);
        GOLDEN.assertMatches("spot-inference.yaml", yaml(manifest));
    }

    @Test
    void aKeptPoolIsSelectedAndNamedOnTheJobOnlyWhileAzureCreatesIt() {
        Workload workload = Workload.builder("chat-serve").phase(Phase.INFERENCE).model(ModelClass.SMALL)
                .container("vllm/vllm-openai:v0.6.3").command("python3", "serve.py").build();
        Plan plan = Plan.builder(workload, T4).spot(true).build();
        SubmitOptions options = SubmitOptions.withKey("chat-serve-1");
        // A kept pool wins over nodePools: a size nodePools lists gets no kept pool (AzurePoolKeeper).
        AksSettings settings = settings("nodePools", "Standard_NC4as_T4_v3=listed");
        JobIdentity job = JobIdentity.of(plan, options, settings.namespace(), VERSION);
        for (boolean beingCreated : List.of(true, false)) {
            Job manifest = JobManifest.render(job, plan, options, settings,
                    Optional.of(new TargetPool("g0123456789a", beingCreated)));
            assertEquals(Map.of(Placement.INSTANCE_TYPE, "Standard_NC4as_T4_v3", Placement.AGENT_POOL,
                    "g0123456789a"), manifest.getSpec().getTemplate().getSpec().getNodeSelector());
            assertEquals(beingCreated ? "g0123456789a" : null,
                    manifest.getMetadata().getAnnotations().get(Placement.NEW_NODE_POOL));
        }
        assertEquals("listed", JobManifest.render(job, plan, options, settings).getSpec().getTemplate().getSpec()
                .getNodeSelector().get(Placement.AGENT_POOL), "without a kept pool, the one nodePools lists");
    }

    @Test
    void cpuSmallModelOnTheDefaultImage() {
        Workload workload = Workload.builder("sentiment").phase(Phase.INFERENCE).model(ModelClass.SMALL)
                .resources(Resources.builder().gpus(0).vcpus(4).memoryGib(12.5))
                .command("python3", "serve.py", "--port", "8080").build();
        Plan plan = Plan.builder(workload, D8).build();
        SubmitOptions options = SubmitOptions.withKey("1-sentiment");
        AksSettings settings = settings("defaultImage", "python:3.12-slim");
        Job manifest = JobManifest.render(JobIdentity.of(plan, options, settings.namespace(), VERSION), plan, options,
                settings);
        GOLDEN.assertMatches("cpu-small-model.yaml", yaml(manifest));
        assertTrue(manifest.getMetadata().getName().startsWith("j1-sentiment-"), "a Service name starts with a letter");
    }

    @Test
    void theKitsHostileArgumentsAndEnvironmentHaveEveryDollarDoubled() {
        List<String> argv = new ArrayList<>(List.of("printf", "<%s>\\n"));
        argv.addAll(KitArguments.HOSTILE);
        Workload.Builder builder = Workload.builder("argv").phase(Phase.INFERENCE).model(ModelClass.SMALL)
                .container("busybox:1.36").command(argv);
        for (int i = 0; i < KitArguments.HOSTILE.size(); i++) {
            builder.env("TCK_VALUE_" + i, KitArguments.HOSTILE.get(i));
        }
        Plan plan = Plan.builder(builder.build(), TCK_SMALL).build();
        SubmitOptions options = SubmitOptions.withKey("tck-argv");
        Job manifest = JobManifest.render(JobIdentity.of(plan, options, "gantry-tck", VERSION), plan, options,
                settings());
        GOLDEN.assertMatches("hostile-argv-and-env.yaml", yaml(manifest));

        List<String> command = manifest.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        assertEquals(RankShim.ARGV_START + argv.size(), command.size());
        for (int i = 0; i < argv.size(); i++) {
            assertEquals(argv.get(i), kubeletExpands(command.get(RankShim.ARGV_START + i)), "argv[" + i + "]");
        }
        List<EnvVar> env = manifest.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        for (int i = 0; i < KitArguments.HOSTILE.size(); i++) {
            assertEquals("TCK_VALUE_" + i, env.get(i).getName());
            assertEquals(KitArguments.HOSTILE.get(i), kubeletExpands(env.get(i).getValue()), "TCK_VALUE_" + i);
        }
    }

    /** What the kubelet makes of a command element or env value without variables: {@code $$} becomes {@code $}. */
    private static String kubeletExpands(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '$') {
                out.append('$');
                i++;
            } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '(') {
                throw new AssertionError("'" + text + "' would have the kubelet expand a variable");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    @Test
    void theContractsRankVariablesComeFromTheCompletionIndexAndTheRestAreTheContractsValues() {
        Workload workload = training("ranks").container("busybox:1.36").command("true")
                .resources(Resources.builder().nodes(3)).build();
        Plan plan = Plan.builder(workload, D8).build();
        SubmitOptions options = new SubmitOptions("ranks", 3, true, List.of());
        JobIdentity job = JobIdentity.of(plan, options, "ml-jobs", VERSION);
        Map<String, EnvVar> env = new LinkedHashMap<>();
        PodEnvironment.of(job, plan, options, 29500).forEach(var -> env.put(var.getName(), var));
        Map<String, String> contract = JobEnvironment.of("ranks", plan, options,
                new JobEnvironment.Rendezvous(0, "ranks-0.ranks", 29500));
        assertEquals(new ArrayList<>(contract.keySet()), new ArrayList<>(env.keySet()).subList(0, contract.size()));
        contract.forEach((name, value) -> {
            if (PodEnvironment.RANK_VARIABLES.contains(name)) {
                assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
                        env.get(name).getValueFrom().getFieldRef().getFieldPath(), name);
            } else {
                assertEquals(value, env.get(name).getValue(), name);
            }
        });
        assertEquals("ranks-0.ranks", env.get("MASTER_ADDR").getValue());
    }

    @Test
    void aWorkloadWithoutAnImageNeedsTheDefaultImage() {
        Workload workload = training("no-image").command("true").build();
        Plan plan = Plan.builder(workload, D8).build();
        SubmitOptions options = SubmitOptions.withKey("no-image");
        GantryException e = assertThrows(GantryException.class, () -> JobManifest.render(JobIdentity.of(plan,
                options, "ml-jobs", VERSION), plan, options, settings()));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().contains("backends.aks.defaultImage"), e.getMessage());
    }

    @Test
    void theOwnerReferenceNeedsTheCreatedJobsUid() {
        Job notCreated = new JobBuilder().withMetadata(new ObjectMetaBuilder().withName("x").build()).build();
        assertThrows(IllegalArgumentException.class, () -> JobManifest.ownerReference(notCreated));
    }
}
