package dev.gantry.api;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An Azure VM size (a SKU such as {@code Standard_ND96isr_H100_v5}) and the facts that placement needs.
 *
 * @param name the Azure size name
 * @param family the size-name family, e.g. {@code ND}, {@code NC}, {@code E}, {@code F}
 * @param vcpus usable vCPUs (constrained sizes count their constrained vCPUs)
 * @param memoryGib memory, GiB
 * @param gpu the GPUs, empty for CPU-only sizes
 * @param rdma whether the size has RDMA (InfiniBand) networking
 * @param architecture CPU architecture
 * @param hyperVGenerations supported Hyper-V generations, {@code V1} and/or {@code V2}
 */
public record VmSize(
        String name,
        String family,
        int vcpus,
        double memoryGib,
        Optional<GpuSpec> gpu,
        boolean rdma,
        Architecture architecture,
        Set<String> hyperVGenerations) {

    /**
     * Checks the size's facts and copies its Hyper-V generations.
     *
     * @param name the size name
     * @param family the family
     * @param vcpus vCPUs, at least 1
     * @param memoryGib memory in GiB, greater than zero
     * @param gpu the GPUs, or empty
     * @param rdma whether it has RDMA
     * @param architecture the CPU architecture
     * @param hyperVGenerations the Hyper-V generations, copied
     * @throws NullPointerException when a component other than a number is null
     * @throws IllegalArgumentException when {@code vcpus} is below 1 or {@code memoryGib} not above zero
     */
    public VmSize {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(architecture, "architecture");
        hyperVGenerations = Set.copyOf(hyperVGenerations);
        if (vcpus < 1) {
            throw new IllegalArgumentException(name + ": vCPUs must be >= 1, got " + vcpus);
        }
        if (!(memoryGib > 0)) {
            throw new IllegalArgumentException(name + ": memory must be > 0 GiB, got " + memoryGib);
        }
    }

    /**
     * Whether this size has GPUs.
     *
     * @return true when {@link #gpu()} is present
     */
    public boolean hasGpu() {
        return gpu.isPresent();
    }

    /**
     * The GPUs of one VM of this size.
     *
     * @return GPUs per VM, 0 for CPU-only sizes
     */
    public int gpuCount() {
        return gpu.map(GpuSpec::count).orElse(0);
    }
}
