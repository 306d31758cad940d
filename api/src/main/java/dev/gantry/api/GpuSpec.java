package dev.gantry.api;

import java.util.Objects;

/**
 * The GPUs of one VM size: model (the catalog's accelerator name, e.g. {@code H100}, {@code A100-80GB}), count per
 * VM, memory per GPU in GiB, and vendor.
 */
public record GpuSpec(String model, int count, double memoryGib, GpuVendor vendor) {
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
