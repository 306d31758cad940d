package dev.gantry.api;

/** The orchestrators Azure's guidance names; each has a backend of the same lower-case name. */
public enum Orchestrator {
    /** Azure CycleCloud: an HPC cluster with Slurm or Grid Engine; the backend named {@code cyclecloud}. */
    CYCLECLOUD,
    /** Azure Batch: pools of VMs that run jobs and tasks; the backend named {@code batch}. */
    BATCH,
    /** Azure Kubernetes Service: Kubernetes Jobs on GPU node pools; the backend named {@code aks}. */
    AKS,
    /** VMs someone else created, reached locally or over SSH; the backend named {@code manual}. */
    MANUAL;

    /**
     * The backend that runs on this orchestrator.
     *
     * @return the backend name, the constant in lower case, e.g. {@code cyclecloud}
     */
    public String backendName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
