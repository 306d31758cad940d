package dev.gantry.api;

/** GPU vendor wanted by a workload, or offered by a VM size. Specs spell the constants in lower case. */
public enum GpuVendor {
    NVIDIA,
    AMD,
    /** No preference (only meaningful in a request). */
    ANY;
}
