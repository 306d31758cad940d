package dev.gantry.images;

import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;

/**
 * Chooses the VM image for a size and workload (Data Science VM by default, HPC images for RDMA sizes, ROCm for AMD
 * GPUs, or the user's own image) and says why.
 */
public interface ImageChooser {
    ImageChoice choose(VmSize size, Workload workload);
}
