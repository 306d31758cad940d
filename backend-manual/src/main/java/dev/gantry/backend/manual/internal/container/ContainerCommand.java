package dev.gantry.backend.manual.internal.container;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The runtime command lines of a container job, as pure functions of the settings and the plan. The result is an
 * argv: every element reaches the runtime as one argument (the job wrapper runs it as {@code "$@"}), so the
 * workload's arguments arrive in the container verbatim. Environment values are never on it: they are in the env
 * file, or (names only) in the runtime's environment.
 */
public final class ContainerCommand {
    static final String NAME_PREFIX = "gantry-";
    static final String JOB_LABEL = "gantry.job";

    private ContainerCommand() {
    }

    /** The container's name: the job id, which is already restricted to letters, digits, '.', '_' and '-'. */
    public static String containerName(String jobId) {
        return NAME_PREFIX + jobId;
    }

    /**
     * {@code RUNTIME [global options] run ... IMAGE ARGV...} for a plan whose workload has a container image.
     *
     * @param hostNvidiaGpus NVIDIA GPUs the host has (0 when unknown): a plan using fewer gets the first ones only
     */
    public static List<String> run(ContainerSettings settings, Plan plan, String jobId, String envFile,
                                   int hostNvidiaGpus) {
        Workload workload = plan.workload();
        String image = workload.container().orElseThrow(
                () -> new IllegalArgumentException("the workload " + workload.name() + " has no container image"))
                .image();
        List<String> argv = settings.prefix();
        argv.add("run");
        argv.add("--rm");
        // No --init: an init process turns "command not found" (exit 127, which status reports by name) into its
        // own exit 1. The program is PID 1 instead; it gets a cancel's or an eviction's SIGTERM when it handles
        // it (as a checkpointing trainer does), and the kill after the grace period otherwise.
        argv.add("--name");
        argv.add(containerName(jobId));
        argv.add("--label");
        argv.add(JOB_LABEL + "=" + jobId);
        // NCCL and PyTorch's DataLoader share memory between processes: the default 64 MiB /dev/shm is too small.
        argv.add("--ipc=host");
        for (String ulimit : settings.ulimits()) {
            argv.add("--ulimit");
            argv.add(ulimit);
        }
        plan.vmSize().gpu().ifPresent(gpu -> argv.addAll(gpuOptions(settings.runtime(), gpu, hostNvidiaGpus)));
        argv.add("--env-file");
        argv.add(envFile);
        checkpointMount(workload).ifPresent(path -> {
            argv.add("--volume");
            argv.add(path + ":" + path);
        });
        workload.workingDir().ifPresent(dir -> {
            argv.add("--workdir");
            argv.add(dir);
        });
        argv.addAll(settings.runOptions());
        argv.add(image);
        argv.addAll(workload.command());
        return argv;
    }

    /** {@code RUNTIME [global options] rm ...}: removes a job's container whatever state it is in. */
    public static List<String> remove(ContainerSettings settings, String containerName) {
        List<String> argv = settings.prefix();
        argv.addAll(settings.runtime().forceRemove(containerName));
        return argv;
    }

    /** The host directory mounted at the same path: a checkpoint given as a local path, not a storage URL. */
    public static Optional<String> checkpointMount(Workload workload) {
        return workload.checkpoint().map(Checkpoint::path).filter(path -> path.startsWith("/"));
    }

    static List<String> gpuOptions(ContainerRuntime runtime, GpuSpec gpu, int hostNvidiaGpus) {
        if (gpu.vendor() == GpuVendor.AMD) {
            // ROCm needs the compute interface (kfd) and the render nodes (dri), which belong to group video;
            // ROCm's own documentation runs containers with seccomp unconfined for its memory-mapping calls.
            return List.of("--device", "/dev/kfd", "--device", "/dev/dri", "--group-add", "video",
                    "--security-opt", "seccomp=unconfined");
        }
        boolean all = gpu.count() >= hostNvidiaGpus;
        List<String> options = new ArrayList<>();
        if (runtime == ContainerRuntime.DOCKER) {
            options.add("--gpus");
            // --gpus parses its value as CSV: a device list with commas must be one quoted field.
            options.add(all ? "all" : "\"device=" + indexes(gpu.count()).collect(Collectors.joining(",")) + "\"");
        } else {
            // Podman uses the Container Device Interface specs that nvidia-ctk cdi generate writes.
            if (all) {
                options.add("--device");
                options.add("nvidia.com/gpu=all");
            } else {
                indexes(gpu.count()).forEach(index -> {
                    options.add("--device");
                    options.add("nvidia.com/gpu=" + index);
                });
            }
        }
        return options;
    }

    private static Stream<String> indexes(int count) {
        return IntStream.range(0, count).mapToObj(Integer::toString);
    }
}
