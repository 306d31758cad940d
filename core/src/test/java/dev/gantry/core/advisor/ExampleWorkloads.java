package dev.gantry.core.advisor;

import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Precision;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import java.time.Duration;
import java.util.List;

/** The four example workloads of examples/*.yaml, built in code field by field as the files say. */
final class ExampleWorkloads {
    private ExampleWorkloads() {
    }

    /** examples/llm-finetune.yaml. */
    static Workload llmFinetune() {
        return Workload.builder("llama-finetune")
                .label("team", "nlp")
                .phase(Phase.TRAINING)
                .model(ModelClass.GENERATIVE)
                .modelSize(new ModelSize(7e9, Precision.BF16))
                .resources(Resources.builder().gpus(8).gpuMemoryGib(80).gpuVendor(GpuVendor.NVIDIA).vcpus(16)
                        .memoryGib(64).nodes(2).interconnect(Interconnect.INFINIBAND).build())
                .container("nvcr.io/nvidia/pytorch:24.05-py3")
                .command("torchrun", "--nproc-per-node=8", "train.py")
                .workingDir("/workspace")
                .env("EPOCHS", "3")
                .secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .checkpoint(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(30)))
                .spot(SpotPolicy.ALLOWED)
                .regions(List.of("eastus", "westus2"))
                .budget(new Budget(120))
                .estimate(new RuntimeEstimate(10, "A100-80GB"))
                .optimize(Optimize.COST)
                .build();
    }

    /** examples/llm-inference.yaml. */
    static Workload llmInference() {
        return Workload.builder("llama-serve")
                .label("team", "nlp")
                .label("tier", "production")
                .phase(Phase.INFERENCE)
                .model(ModelClass.GENERATIVE)
                .modelSize(new ModelSize(70e9, Precision.BF16))
                .resources(Resources.builder().vcpus(24).memoryGib(200).build())
                .container("vllm/vllm-openai:v0.5.0")
                .command("python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "/models/llama-70b",
                        "--tensor-parallel-size", "2")
                .env("VLLM_PORT", "8000")
                .secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .spot(SpotPolicy.NEVER)
                .regions(List.of("eastus", "eastus2", "westus3"))
                .build();
    }

    /** examples/vision-training.yaml. */
    static Workload visionTraining() {
        return Workload.builder("vision-train")
                .label("team", "vision")
                .phase(Phase.TRAINING)
                .model(ModelClass.COMPLEX)
                .resources(Resources.builder().gpus(1).gpuMemoryGib(24).vcpus(8).memoryGib(64).build())
                .container("nvcr.io/nvidia/pytorch:24.05-py3")
                .command("python", "train.py", "--epochs", "90", "--batch-size", "256")
                .workingDir("/workspace")
                .checkpoint(new Checkpoint("/mnt/checkpoints", Duration.ofMinutes(15)))
                .spot(SpotPolicy.PREFERRED)
                .estimate(new RuntimeEstimate(20, "V100"))
                .optimize(Optimize.COST)
                .build();
    }

    /** examples/tabular-small.yaml. */
    static Workload tabularSmall() {
        return Workload.builder("churn-xgboost")
                .label("team", "analytics")
                .phase(Phase.TRAINING)
                .model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(8).memoryGib(64).build())
                .command("python3", "train_xgboost.py", "--data", "/data/churn.parquet")
                .env("OMP_NUM_THREADS", "8")
                .spot(SpotPolicy.NEVER)
                .regions(List.of("westus2"))
                .build();
    }
}
