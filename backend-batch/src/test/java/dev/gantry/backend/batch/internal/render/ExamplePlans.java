package dev.gantry.backend.batch.internal.render;

import dev.gantry.api.Architecture;
import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Precision;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The repository's examples (examples/*.yaml) as plans, built from the api the way the other backends' golden tests
 * build theirs: backends cannot read specs (core does), so each workload restates its example field by field, and
 * each plan takes the VM size, region, image and node agent SKU the guidance gives such a workload.
 */
final class ExamplePlans {
    static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    static final ImageRef UBUNTU_HPC = ImageRef.marketplace("Ubuntu HPC 22.04", "microsoft-dsvm:ubuntu-hpc:2204:latest");
    static final ImageRef GALLERY = new ImageRef("ML image 2024.06", "/subscriptions/00000000-0000-0000-0000-000000000000"
            + "/resourceGroups/ml-images/providers/Microsoft.Compute/galleries/ml/images/ubuntu-cuda/versions/2024.6.0",
            ImageRef.Kind.GALLERY);
    static final String NODE_AGENT = "batch.node.ubuntu 22.04";
    /** What NodeBoot's POSIX-shell form looks like until images renders it: a stand-in with the same shape. */
    static final String BOOT_SCRIPT = String.join("\n",
            "#!/bin/sh",
            "set -eu",
            "# gantry node boot: checks the image's prerequisites",
            "command -v nvidia-smi >/dev/null || { echo 'gantry boot: nvidia-smi is missing' >&2; exit 1; }",
            "nvidia-smi -L",
            "");

    static final VmSize D2 = new VmSize("Standard_D2s_v5", "D", 2, 8, Optional.empty(), false, Architecture.X64,
            Set.of("V1", "V2"));
    static final VmSize ND_A100 = new VmSize("Standard_ND96amsr_A100_v4", "ND", 96, 1900,
            Optional.of(new GpuSpec("A100-80GB", 8, 80, GpuVendor.NVIDIA)), true, Architecture.X64, Set.of("V2"));
    static final VmSize NC_A100_2 = new VmSize("Standard_NC48ads_A100_v4", "NC", 48, 440,
            Optional.of(new GpuSpec("A100-80GB", 2, 80, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    static final VmSize NC_A100 = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220,
            Optional.of(new GpuSpec("A100-80GB", 1, 80, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));

    /** Example name, its plan, and its boot script. */
    record Example(String name, Plan plan, Optional<String> bootScript) {
    }

    private ExamplePlans() {
    }

    static List<Example> all() {
        return List.of(quickstart(), distributedHello(), llmFinetune(), llmInference(), visionTraining());
    }

    static Example quickstart() {
        Workload workload = Workload.builder("quickstart").label("team", "platform").label("purpose", "demo")
                .phase(Phase.TRAINING).model(ModelClass.SMALL).resources(Resources.builder().vcpus(2).memoryGib(4))
                .command("python3", "examples/quickstart/train.py", "--epochs", "5", "--checkpoint-dir",
                        "/tmp/gantry-quickstart-checkpoints")
                .env("SEED", "7").checkpoint(new Checkpoint("/tmp/gantry-quickstart-checkpoints", Duration.ofMinutes(5)))
                .spot(SpotPolicy.ALLOWED).build();
        return new Example("quickstart", Plan.builder(workload, D2).region("eastus").spot(true).image(UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(NODE_AGENT))).build(), Optional.empty());
    }

    static Example distributedHello() {
        Workload workload = Workload.builder("distributed-hello").label("purpose", "demo").phase(Phase.TRAINING)
                .model(ModelClass.SMALL).resources(Resources.builder().nodes(2).interconnect(Interconnect.ETHERNET))
                .command("python3", "-c", """
                        import os, socket, time
                        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
                        master = (os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]))
                        print(f"rank {rank} of {world} on {socket.gethostname()}, master {master[0]}:{master[1]}", flush=True)
                        if rank == 0:
                            with socket.create_server(("", master[1])) as server:
                                server.settimeout(60)
                                connection, _ = server.accept()
                                with connection:
                                    print("rank 0 received:", connection.recv(100).decode(), flush=True)
                        else:
                            for _ in range(300):
                                try:
                                    with socket.create_connection(master, timeout=2) as connection:
                                        connection.sendall(f"hello from rank {rank}".encode())
                                        break
                                except OSError:
                                    time.sleep(0.2)
                            else:
                                raise SystemExit("rank 1 could not reach the master")
                        """).build();
        return new Example("distributed-hello", Plan.builder(workload, D2).region("eastus").image(UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(NODE_AGENT))).build(), Optional.empty());
    }

    static Example llmFinetune() {
        Workload workload = Workload.builder("llama-finetune").label("team", "nlp").phase(Phase.TRAINING)
                .model(ModelClass.GENERATIVE).modelSize(new ModelSize(7e9, Precision.BF16))
                .resources(Resources.builder().gpus(8).gpuMemoryGib(80).gpuVendor(GpuVendor.NVIDIA).vcpus(16)
                        .memoryGib(64).nodes(2).interconnect(Interconnect.INFINIBAND))
                .container("nvcr.io/nvidia/pytorch:24.05-py3").command("torchrun", "--nproc-per-node=8", "train.py")
                .workingDir("/workspace").env("EPOCHS", "3").secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .checkpoint(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(30))).spot(SpotPolicy.ALLOWED)
                .regions(List.of("eastus", "westus2")).budget(new Budget(120))
                .estimate(new RuntimeEstimate(10, "A100-80GB")).optimize(Optimize.COST).build();
        return new Example("llm-finetune", Plan.builder(workload, ND_A100).region("eastus").spot(true)
                .image(UBUNTU_HPC).boot(new NodeBoot(Optional.empty(), Optional.of(NODE_AGENT))).build(),
                Optional.of(BOOT_SCRIPT));
    }

    static Example llmInference() {
        Workload workload = Workload.builder("llama-serve").label("team", "nlp").label("tier", "production")
                .phase(Phase.INFERENCE).model(ModelClass.GENERATIVE).modelSize(new ModelSize(70e9, Precision.BF16))
                .resources(Resources.builder().vcpus(24).memoryGib(200)).container("vllm/vllm-openai:v0.5.0")
                .command("python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "/models/llama-70b",
                        "--tensor-parallel-size", "2")
                .env("VLLM_PORT", "8000").secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN")).spot(SpotPolicy.NEVER)
                .regions(List.of("eastus", "eastus2", "westus3")).build();
        return new Example("llm-inference", Plan.builder(workload, NC_A100_2).region("eastus2")
                .image(UBUNTU_HPC).boot(new NodeBoot(Optional.empty(), Optional.of(NODE_AGENT))).build(),
                Optional.of(BOOT_SCRIPT));
    }

    static Example visionTraining() {
        Workload workload = Workload.builder("vision-train").label("team", "vision").phase(Phase.TRAINING)
                .model(ModelClass.COMPLEX).resources(Resources.builder().gpus(1).gpuMemoryGib(24).vcpus(8).memoryGib(64))
                .container("nvcr.io/nvidia/pytorch:24.05-py3")
                .command("python", "train.py", "--epochs", "90", "--batch-size", "256").workingDir("/workspace")
                .checkpoint(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(15))).spot(SpotPolicy.PREFERRED)
                .estimate(new RuntimeEstimate(20, "V100")).optimize(Optimize.COST).build();
        // A gallery image, so that one golden file shows virtualMachineImageId.
        return new Example("vision-training", Plan.builder(workload, NC_A100).region("westus2").spot(true)
                .image(GALLERY).boot(new NodeBoot(Optional.empty(), Optional.of(NODE_AGENT))).build(),
                Optional.of(BOOT_SCRIPT));
    }
}
