package dev.gantry.backend.batch.internal.render;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import java.util.ArrayList;
import java.util.List;

/**
 * The container run options of a plan on Batch, one token each ({@code containerRunOptions} of the task): the hosts
 * module's choices (its {@code ContainerCommand}) that still apply when Batch runs the container. Backends cannot
 * depend on the hosts module and its options are package-private there; the few tokens are restated here, and a
 * shared support module is their better home once a third backend needs them.
 * <ul>
 *   <li>{@code --ipc=host}: NCCL and PyTorch's DataLoader share memory between processes, and the default 64 MiB
 *       {@code /dev/shm} is too small;</li>
 *   <li>NVIDIA GPUs: {@code --gpus all} (the NVIDIA Container Toolkit's hook on images with
 *       {@code NvidiaTeslaDriverInstalled}; one task per node, so all of the node's GPUs are the task's); AMD GPUs:
 *       the compute interface and the render nodes, group {@code video}, seccomp unconfined (ROCm's own documentation
 *       runs containers so);</li>
 *   <li>several nodes: the host's network, so that ranks meet at the nodes' own addresses.</li>
 * </ul>
 */
public final class ContainerRunOptions {
    private ContainerRunOptions() {
    }

    public static List<String> of(Plan plan) {
        List<String> options = new ArrayList<>(List.of("--ipc=host"));
        plan.vmSize().gpu().ifPresent(gpu -> options.addAll(gpu.vendor() == GpuVendor.AMD
                ? List.of("--device=/dev/kfd", "--device=/dev/dri", "--group-add=video",
                        "--security-opt=seccomp=unconfined")
                : List.of("--gpus=all")));
        if (plan.nodes() > 1) {
            options.add("--network=host");
        }
        return List.copyOf(options);
    }
}
