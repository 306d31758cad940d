package dev.gantry.api;

/** Whether the workload may run on Azure Spot capacity, which can be evicted. Specs spell the constants in lower case. */
public enum SpotPolicy {
    /** On-demand capacity only. */
    NEVER,
    /** Spot when the work tolerates eviction (inference, or training with checkpoints), else on-demand. */
    ALLOWED,
    /** Spot whenever a spot price exists; training must then checkpoint. */
    PREFERRED;
}
