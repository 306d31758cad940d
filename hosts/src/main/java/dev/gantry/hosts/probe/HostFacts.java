package dev.gantry.hosts.probe;

import dev.gantry.api.GpuVendor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What a host has, as its probes reported it. Unknown values are empty (a probe failed or was missing), never zero,
 * so that "no GPUs" and "could not tell" stay different.
 *
 * @param os the operating system
 * @param kernel the kernel release, e.g. {@code 6.5.0-1025-azure}
 * @param architecture the machine, e.g. {@code x86_64} or {@code aarch64}
 * @param cpus online CPUs ({@code nproc})
 * @param memoryGib total memory, GiB
 * @param disk free space at the work directory
 * @param gpus the GPUs, NVIDIA ones then AMD ones
 * @param cudaVersion the CUDA version the NVIDIA driver supports
 * @param nvidiaCtkVersion the NVIDIA Container Toolkit's version, when installed
 * @param cdiSpecs the CDI specification files present (Podman reaches NVIDIA GPUs through them)
 * @param docker Docker as {@code docker info} reports it
 * @param podman Podman as {@code podman info} reports it
 * @param infinibandPorts the RDMA ports
 * @param bootMarker the boot script's readiness marker
 * @param tools how each probe command fared, by section name
 * @param problems what could not be understood
 */
public record HostFacts(
        Optional<OsRelease> os,
        Optional<String> kernel,
        Optional<String> architecture,
        OptionalInt cpus,
        OptionalDouble memoryGib,
        Optional<DiskSpace> disk,
        List<Gpu> gpus,
        Optional<String> cudaVersion,
        Optional<String> nvidiaCtkVersion,
        List<String> cdiSpecs,
        ContainerEngine docker,
        ContainerEngine podman,
        List<IbPort> infinibandPorts,
        BootMarker bootMarker,
        Map<String, ToolRun> tools,
        List<ProbeProblem> problems) {

    public HostFacts {
        Objects.requireNonNull(os, "os");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(cpus, "cpus");
        Objects.requireNonNull(memoryGib, "memoryGib");
        Objects.requireNonNull(disk, "disk");
        gpus = List.copyOf(gpus);
        Objects.requireNonNull(cudaVersion, "cudaVersion");
        Objects.requireNonNull(nvidiaCtkVersion, "nvidiaCtkVersion");
        cdiSpecs = List.copyOf(cdiSpecs);
        Objects.requireNonNull(docker, "docker");
        Objects.requireNonNull(podman, "podman");
        infinibandPorts = List.copyOf(infinibandPorts);
        Objects.requireNonNull(bootMarker, "bootMarker");
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        problems = List.copyOf(problems);
    }

    /** How the probe named {@code section} fared; NOT_PROBED when the output had no such section. */
    public ToolRun tool(String section) {
        return tools.getOrDefault(section, ToolRun.notProbed());
    }

    public List<Gpu> gpus(GpuVendor vendor) {
        return gpus.stream().filter(g -> vendor == GpuVendor.ANY || g.vendor() == vendor).toList();
    }

    /** The vendor of the host's GPUs: the one with most GPUs (NVIDIA on a tie, the common case); empty without
     * GPUs. */
    public Optional<GpuVendor> gpuVendor() {
        long nvidia = gpus(GpuVendor.NVIDIA).size();
        long amd = gpus(GpuVendor.AMD).size();
        if (nvidia == 0 && amd == 0) {
            return Optional.empty();
        }
        return Optional.of(nvidia >= amd ? GpuVendor.NVIDIA : GpuVendor.AMD);
    }

    /** The NVIDIA driver version (the first GPU's; one driver serves all). */
    public Optional<String> nvidiaDriver() {
        return gpus(GpuVendor.NVIDIA).stream().map(Gpu::driver).flatMap(Optional::stream).findFirst();
    }

    public List<IbPort> activeInfinibandPorts() {
        return infinibandPorts.stream().filter(p -> p.active() && p.infiniband()).toList();
    }

    /** True when the CDI spec for NVIDIA GPUs exists ({@code nvidia-ctk cdi generate} writes it). */
    public boolean hasNvidiaCdiSpec() {
        return cdiSpecs.stream().anyMatch(path -> path.substring(path.lastIndexOf('/') + 1).startsWith("nvidia"));
    }
}
