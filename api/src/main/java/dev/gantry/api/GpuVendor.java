package dev.gantry.api;

/** GPU vendor wanted by a workload, or offered by a VM size. Specs spell the constants in lower case. */
public enum GpuVendor {
    /** NVIDIA GPUs (CUDA); containers run with the NVIDIA container runtime. */
    NVIDIA,
    /** AMD GPUs (ROCm); containers get the AMD device flags. */
    AMD,
    /** No preference (only meaningful in a request). */
    ANY;
}
