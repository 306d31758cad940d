package dev.gantry.hosts.container;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.StartChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
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
    static final String RANK_LABEL = "gantry.rank";

    private ContainerCommand() {
    }

    /** The container's name: the job id, which is already restricted to letters, digits, '.', '_' and '-'. */
    public static String containerName(String jobId) {
        return NAME_PREFIX + jobId;
    }

    /**
     * The name of one rank's container: a multi-node job's ranks are told apart, so that hosts sharing a container
     * store (or one host's logs) never see two containers of one name.
     */
    public static String containerName(String jobId, int rank, int nodes) {
        return nodes > 1 ? containerName(jobId) + "-rank" + rank : containerName(jobId);
    }

    /**
     * {@code RUNTIME [global options] run ... IMAGE ARGV...} for a plan whose workload has a container image.
     *
     * @param gpus the host's GPUs this container gets (none for a CPU job)
     */
    public static List<String> run(ContainerSettings settings, Plan plan, String jobId, String envFile,
                                   GpuSlice gpus) {
        return run(settings, plan, jobId, 0, envFile, gpus);
    }

    /** The command line of one rank of a job ({@code rank} 0 of 1 for a single-node job). */
    public static List<String> run(ContainerSettings settings, Plan plan, String jobId, int rank, String envFile,
                                   GpuSlice gpus) {
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
        argv.add(containerName(jobId, rank, plan.nodes()));
        argv.add("--label");
        argv.add(JOB_LABEL + "=" + jobId);
        if (plan.nodes() > 1) {
            argv.add("--label");
            argv.add(RANK_LABEL + "=" + rank);
        }
        // NCCL and PyTorch's DataLoader share memory between processes: the default 64 MiB /dev/shm is too small.
        argv.add("--ipc=host");
        for (String ulimit : settings.ulimits()) {
            argv.add("--ulimit");
            argv.add(ulimit);
        }
        if (!gpus.isEmpty()) {
            plan.vmSize().gpu().ifPresent(gpu -> argv.addAll(gpuOptions(settings.runtime(), gpu.vendor(), gpus)));
        }
        if (plan.nodes() > 1) {
            argv.addAll(multiNodeOptions(settings, plan));
        }
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
        // The nodes of a multi-node job check themselves and the fabric before the command, in the container.
        argv.addAll(StartChecks.command(plan));
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

    static List<String> gpuOptions(ContainerRuntime runtime, GpuVendor vendor, GpuSlice gpus) {
        if (vendor == GpuVendor.AMD) {
            // ROCm needs the compute interface (kfd) and the render nodes (dri), which belong to group video;
            // ROCm's own documentation runs containers with seccomp unconfined for its memory-mapping calls. The
            // devices are the host's all: the job's share is chosen with HIP's CUDA_VISIBLE_DEVICES, which keeps
            // the host's numbering in the container.
            return List.of("--device", "/dev/kfd", "--device", "/dev/dri", "--group-add", "video",
                    "--security-opt", "seccomp=unconfined");
        }
        List<String> options = new ArrayList<>();
        if (runtime == ContainerRuntime.DOCKER) {
            options.add("--gpus");
            // --gpus parses its value as CSV: a device list with commas must be one quoted field.
            options.add(gpus.all() ? "all" : "\"device=" + indexes(gpus).collect(Collectors.joining(",")) + "\"");
        } else {
            // Podman uses the Container Device Interface specs that nvidia-ctk cdi generate writes.
            if (gpus.all()) {
                options.add("--device");
                options.add("nvidia.com/gpu=all");
            } else {
                indexes(gpus).forEach(index -> {
                    options.add("--device");
                    options.add("nvidia.com/gpu=" + index);
                });
            }
        }
        return options;
    }

    /**
     * A rank of a multi-node job meets the others at MASTER_ADDR:MASTER_PORT, the hosts' own addresses: it shares
     * the host's network (unless the settings chose a network themselves, which validation checks). Over RDMA it
     * also needs the InfiniBand devices and the right to lock the memory it registers with them.
     */
    static List<String> multiNodeOptions(ContainerSettings settings, Plan plan) {
        List<String> options = new ArrayList<>();
        if (networkOption(settings.runOptions()).isEmpty()) {
            options.add("--network=host");
        }
        if (plan.vmSize().rdma()) {
            options.addAll(List.of("--device", "/dev/infiniband", "--cap-add", "IPC_LOCK"));
        }
        return options;
    }

    /** The network a run option chooses ({@code --network=X}, {@code --network X}, {@code --net...}), if any. */
    static Optional<String> networkOption(List<String> runOptions) {
        for (int i = 0; i < runOptions.size(); i++) {
            String option = runOptions.get(i);
            for (String name : List.of("--network", "--net")) {
                if (option.startsWith(name + "=")) {
                    return Optional.of(option.substring(name.length() + 1));
                }
                if (option.equals(name)) {
                    return Optional.of(i + 1 < runOptions.size() ? runOptions.get(i + 1) : "");
                }
            }
        }
        return Optional.empty();
    }

    private static Stream<String> indexes(GpuSlice gpus) {
        return gpus.indexes().stream().map(String::valueOf);
    }
}
