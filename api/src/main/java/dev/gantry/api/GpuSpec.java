package dev.gantry.api;

import java.util.Objects;

/**
 * The GPUs of one VM size: model (the catalog's accelerator name, e.g. {@code H100}, {@code A100-80GB}), count per
 * VM, memory per GPU in GiB, and vendor.
 *
 * @param model the catalog's accelerator name, e.g. {@code H100}
 * @param count GPUs per VM, at least 1
 * @param memoryGib memory of one GPU in GiB
 * @param vendor NVIDIA or AMD, never {@link GpuVendor#ANY}
 */
public record GpuSpec(String model, int count, double memoryGib, GpuVendor vendor) {
    /**
     * Checks the count and the vendor.
     *
     * @param model the accelerator name
     * @param count GPUs per VM
     * @param memoryGib memory per GPU in GiB
     * @param vendor the vendor
     * @throws NullPointerException when {@code model} or {@code vendor} is null
     * @throws IllegalArgumentException when {@code count} is below 1 or the vendor is {@link GpuVendor#ANY}
     */
    public GpuSpec {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(vendor, "vendor");
        if (count < 1) {
            throw new IllegalArgumentException("GPU count must be >= 1, got " + count);
        }
        if (vendor == GpuVendor.ANY) {
            throw new IllegalArgumentException("a VM's GPU vendor must be NVIDIA or AMD, got ANY");
        }
    }
}
