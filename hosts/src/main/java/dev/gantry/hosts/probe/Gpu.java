package dev.gantry.hosts.probe;

import dev.gantry.api.GpuVendor;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One GPU as the vendor's tool reports it.
 *
 * @param vendor NVIDIA or AMD
 * @param name the product name, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param memoryGib total memory, GiB (empty when the tool did not report it)
 * @param driver the driver version, when the tool reports it per GPU
 */
public record Gpu(GpuVendor vendor, String name, OptionalDouble memoryGib, Optional<String> driver) {
    public Gpu {
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(memoryGib, "memoryGib");
        Objects.requireNonNull(driver, "driver");
        if (vendor == GpuVendor.ANY) {
            throw new IllegalArgumentException("a GPU's vendor must be NVIDIA or AMD, got ANY");
        }
    }
}
