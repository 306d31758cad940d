package dev.gantry.hosts.probe;

/**
 * The checks {@code gantry doctor} and the manual backend's {@code validate(plan)} run, each with its stable name
 * (scripts match on it) and the workload-spec field a failure points at.
 */
public enum Check {
    GPU_COUNT("gpu.count", "resources.gpus"),
    GPU_VENDOR("gpu.vendor", "resources.gpuVendor"),
    GPU_MEMORY("gpu.memory", "resources.gpuMemoryGib"),
    GPU_DRIVER("gpu.driver", "resources.gpus"),
    CONTAINER_RUNTIME("container.runtime", "container"),
    CONTAINER_NVIDIA_RUNTIME("container.nvidia-runtime", "container"),
    INFINIBAND("infiniband", "resources.interconnect"),
    CPU_VCPUS("cpu.vcpus", "resources.vcpus"),
    MEMORY("memory", "resources.memoryGib"),
    DISK("disk", ""),
    BOOT_MARKER("boot.marker", ""),
    PROBE("probe", "");

    private final String checkName;
    private final String specPath;

    Check(String checkName, String specPath) {
        this.checkName = checkName;
        this.specPath = specPath;
    }

    /** The stable name shown in tables and JSON, e.g. {@code gpu.count}. */
    public String checkName() {
        return checkName;
    }

    /** The workload-spec field a failure of this check points at; empty for host-only checks. */
    public String specPath() {
        return specPath;
    }
}
