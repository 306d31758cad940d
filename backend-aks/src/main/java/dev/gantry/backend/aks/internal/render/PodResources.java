package dev.gantry.backend.aks.internal.render;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one rank's pod asks for, requests equal to limits (the Guaranteed class, so the kubelet evicts it last): CPU
 * and memory from the workload, else a share of the planned size that leaves room for what AKS reserves on every
 * node and its daemon sets; the GPUs of the plan's vendor; the RDMA resource of a multi-node InfiniBand plan.
 *
 * <p>The share: AKS reserves CPU by a table of the node's cores (60m for 1 core to 740m from 64) and memory up to a
 * quarter of the node's; Gantry leaves that plus 200m and up to 1 GiB for daemon sets, never more than a quarter.
 *
 * @param cpuMillis CPU in thousandths of a core
 * @param memoryMib memory in MiB
 * @param gpuResource the extended resource of the GPUs ({@code nvidia.com/gpu}, {@code amd.com/gpu}), when any
 * @param gpus how many
 * @param rdmaResource the RDMA extended resource asked for (one), when the plan is multi-node InfiniBand
 */
public record PodResources(long cpuMillis, long memoryMib, Optional<String> gpuResource, int gpus,
                           Optional<String> rdmaResource) {
    public static final String NVIDIA_GPU = "nvidia.com/gpu";
    public static final String AMD_GPU = "amd.com/gpu";
    /** AKS's CPU reservation (kube-reserved) in millicores by the node's cores, from 1, 2, 4, 8, 16, 32 and 64. */
    private static final int[] RESERVED_CORES = {1, 2, 4, 8, 16, 32, 64};
    private static final int[] RESERVED_MILLIS = {60, 100, 140, 180, 260, 420, 740};
    private static final long DAEMON_SET_MILLIS = 200;
    /** AKS's memory reservation with the default 110 pods (20 MiB each, plus 50) and eviction threshold (100 MiB). */
    private static final long RESERVED_MIB = 20 * 110 + 50 + 100;
    private static final long DAEMON_SET_MIB = 1024;

    public PodResources {
        Objects.requireNonNull(gpuResource, "gpuResource");
        Objects.requireNonNull(rdmaResource, "rdmaResource");
    }

    /** The resources of one rank of a plan; {@code rdmaResource} is asked for by multi-node RDMA plans only. */
    public static PodResources of(Plan plan, Optional<String> rdmaResource) {
        VmSize size = plan.vmSize();
        long cpu = plan.workload().resources().vcpus().isPresent()
                ? plan.workload().resources().vcpus().getAsInt() * 1000L : cpuShare(size.vcpus());
        long memory = plan.workload().resources().memoryGib().isPresent()
                ? (long) Math.ceil(plan.workload().resources().memoryGib().getAsDouble() * 1024)
                : memoryShare((long) Math.floor(size.memoryGib() * 1024));
        int gpus = plan.workload().resources().gpus().orElse(plan.gpusPerNode());
        Optional<String> gpuResource = gpus == 0 ? Optional.empty() : Optional.of(gpuResource(plan));
        return new PodResources(cpu, memory, gpuResource, gpus, infiniBand(plan) ? rdmaResource : Optional.empty());
    }

    /** Whether the plan's ranks talk over InfiniBand: more than one node of an RDMA size. */
    public static boolean infiniBand(Plan plan) {
        return plan.nodes() > 1 && plan.vmSize().rdma();
    }

    /** Half the pod's memory, the default size of {@code /dev/shm}. */
    public Quantity halfMemory() {
        return new Quantity(memoryMib / 2 + "Mi");
    }

    /** The container's requests and limits, equal. */
    public ResourceRequirements requirements() {
        Map<String, Quantity> amounts = new LinkedHashMap<>();
        amounts.put("cpu", new Quantity(cpuMillis % 1000 == 0 ? Long.toString(cpuMillis / 1000) : cpuMillis + "m"));
        amounts.put("memory", new Quantity(memoryMib + "Mi"));
        gpuResource.ifPresent(resource -> amounts.put(resource, new Quantity(Integer.toString(gpus))));
        rdmaResource.ifPresent(resource -> amounts.put(resource, new Quantity("1")));
        return new ResourceRequirementsBuilder().withRequests(new LinkedHashMap<>(amounts))
                .withLimits(new LinkedHashMap<>(amounts)).build();
    }

    private static String gpuResource(Plan plan) {
        GpuVendor vendor = plan.vmSize().gpu().map(gpu -> gpu.vendor())
                .orElse(plan.workload().resources().gpuVendor());
        return vendor == GpuVendor.AMD ? AMD_GPU : NVIDIA_GPU;
    }

    static long cpuShare(int cores) {
        long reserved = 0;
        for (int i = 0; i < RESERVED_CORES.length && cores >= RESERVED_CORES[i]; i++) {
            reserved = RESERVED_MILLIS[i];
        }
        long total = cores * 1000L;
        long share = total - Math.min(total / 4, reserved + DAEMON_SET_MILLIS);
        return Math.max(100, share / 100 * 100);
    }

    static long memoryShare(long totalMib) {
        return Math.max(64, totalMib - Math.min(totalMib / 4, RESERVED_MIB + DAEMON_SET_MIB));
    }
}
