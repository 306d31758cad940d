package dev.gantry.core.catalog;

import dev.gantry.api.GpuVendor;
import java.util.Objects;

/**
 * Facts about one GPU model that the catalog CSV lacks.
 *
 * @param name the catalog's accelerator name, e.g. {@code H100}, {@code A100-80GB}, {@code MI300X}
 * @param vendor NVIDIA or AMD
 * @param memoryGib memory per GPU, GiB
 * @param tensorTflops dense BF16/FP16 tensor TFLOPS, used to scale runtime estimates
 * @param releaseYear year of release, the first tie-break ("latest SKUs first")
 */
public record GpuModel(String name, GpuVendor vendor, double memoryGib, double tensorTflops, int releaseYear) {
    public GpuModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vendor, "vendor");
    }
}
