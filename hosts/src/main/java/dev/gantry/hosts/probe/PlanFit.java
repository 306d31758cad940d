package dev.gantry.hosts.probe;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Whether a host can run a plan: pure evaluation of {@link HostFacts} against a {@link Plan}, one
 * {@link ProbeFinding} per {@link Check}, in the order of {@link Check}.
 *
 * <p>What is needed comes from the workload's explicit resources when set (a shortfall is MISSING) and otherwise
 * from the plan's VM size. The size's memory figures are nominal: a host reports less than the catalog says (an H100
 * "80 GB" shows 81559 MiB = 79.6 GiB in {@code nvidia-smi}; a VM's kernel keeps part of its RAM), so a figure taken
 * from the size is met at {@value #NOMINAL_SHARE} of its value. vCPUs and RAM below the size's figures only WARN:
 * on a machine Gantry does not create, the size is the advisor's yardstick, not a promise.
 */
public final class PlanFit {
    /** Share of a VM size's nominal memory figure that a host must report. */
    public static final double NOMINAL_SHARE = 0.9;
    /** Free disk below which a WARN is given: GPU framework images (e.g. nvcr.io/nvidia/pytorch) unpack to ~20 GiB. */
    public static final double LOW_DISK_GIB = 30;
    /** Free disk below which the check is MISSING: not even a small image and its logs fit. */
    public static final double MIN_DISK_GIB = 2;
    /** The remedy for a missing GPU driver or container toolkit. */
    public static final String DRIVER_FIX = "use an image with the driver (Gantry's default Data Science VM image) or "
            + "apply the boot script: `gantry plan --output json` shows the image; the images module's cloud-init "
            + "installs the NVIDIA Container Toolkit";
    /** The container runtimes the manual backend can be configured with. */
    public static final List<String> RUNTIMES = List.of("docker", "podman", "none");

    private PlanFit() {
    }

    /**
     * Evaluates a host against a plan.
     *
     * @param containerRuntime the manual backend's configured runtime: {@code docker}, {@code podman} or {@code none}
     */
    public static List<ProbeFinding> evaluate(HostFacts host, Plan plan, String containerRuntime) {
        return evaluate(host, plan, containerRuntime, SettingNames.UNNAMED);
    }

    /** The same, its advice naming the backend's own settings. */
    public static List<ProbeFinding> evaluate(HostFacts host, Plan plan, String containerRuntime,
                                              SettingNames names) {
        Objects.requireNonNull(plan, "plan");
        return findings(host, Needs.of(plan), runtime(containerRuntime), names);
    }

    /**
     * Checks a host on its own ({@code gantry doctor} without a plan): its GPUs need their driver and, with a
     * container runtime, the NVIDIA runtime; nothing else is required, so CPU, memory, disk and InfiniBand are
     * reported as found.
     */
    public static List<ProbeFinding> survey(HostFacts host, String containerRuntime) {
        return survey(host, containerRuntime, SettingNames.UNNAMED);
    }

    /** The same, its advice naming the backend's own settings. */
    public static List<ProbeFinding> survey(HostFacts host, String containerRuntime, SettingNames names) {
        Objects.requireNonNull(host, "host");
        return findings(host, Needs.ofHost(host), runtime(containerRuntime), names);
    }

    /** The MISSING findings as validation problems, each under the spec field it concerns. */
    public static List<Problem> problems(List<ProbeFinding> findings) {
        List<Problem> problems = new ArrayList<>();
        for (ProbeFinding f : findings) {
            if (f.status() == FindingStatus.MISSING) {
                problems.add(Problem.of(f.check().specPath(), f.check().checkName() + ": host has " + f.found()
                        + ", needs " + f.needed() + "; fix: " + f.fix()));
            }
        }
        return problems;
    }

    private static String runtime(String containerRuntime) {
        if (containerRuntime == null || !RUNTIMES.contains(containerRuntime)) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("containerRuntime",
                    "must be one of docker, podman, none, got '" + containerRuntime + "'")));
        }
        return containerRuntime;
    }

    private static List<ProbeFinding> findings(HostFacts host, Needs needs, String runtime, SettingNames names) {
        Objects.requireNonNull(host, "host");
        List<ProbeFinding> out = new ArrayList<>();
        out.add(gpuCount(host, needs));
        out.add(gpuVendor(host, needs));
        out.add(gpuMemory(host, needs));
        out.add(gpuDriver(host, needs));
        out.add(containerRuntime(host, runtime, names));
        out.add(nvidiaRuntime(host, needs, runtime));
        out.add(infiniband(host, needs));
        out.add(vcpus(host, needs));
        out.add(memory(host, needs));
        out.add(disk(host, names));
        out.add(bootMarker(host));
        for (ProbeProblem problem : host.problems()) {
            out.add(new ProbeFinding(Check.PROBE, FindingStatus.WARN, problem.toString(), "readable probe output",
                    "run the probe again; if it persists, report it with the probe's output"));
        }
        return out;
    }

    /** What a plan (or, for a survey, the host itself) needs. Empty optionals: no requirement. */
    private record Needs(boolean fromPlan, String source, int gpus, GpuVendor vendor, OptionalDouble gpuMemoryGib,
            boolean gpuMemoryExplicit, OptionalInt vcpus, boolean vcpusExplicit, OptionalDouble memoryGib,
            boolean memoryExplicit, boolean infiniband) {

        static Needs of(Plan plan) {
            Resources r = plan.workload().resources();
            String size = plan.vmSize().name();
            int gpus = plan.gpusPerNode();
            GpuVendor vendor = plan.vmSize().gpu().map(GpuSpec::vendor).orElse(r.gpuVendor());
            OptionalDouble gpuMemory = r.gpuMemoryGib().isPresent() ? r.gpuMemoryGib()
                    : plan.vmSize().gpu().map(g -> OptionalDouble.of(g.memoryGib() * NOMINAL_SHARE))
                            .orElse(OptionalDouble.empty());
            OptionalInt vcpus = r.vcpus().isPresent() ? r.vcpus() : OptionalInt.of(plan.vmSize().vcpus());
            OptionalDouble memory = r.memoryGib().isPresent() ? r.memoryGib()
                    : OptionalDouble.of(plan.vmSize().memoryGib() * NOMINAL_SHARE);
            boolean ib = r.interconnect() == Interconnect.INFINIBAND || plan.nodes() > 1 && plan.vmSize().rdma();
            return new Needs(true, "plan: " + size, gpus, vendor, gpus == 0 ? OptionalDouble.empty() : gpuMemory,
                    r.gpuMemoryGib().isPresent(), vcpus, r.vcpus().isPresent(), memory, r.memoryGib().isPresent(), ib);
        }

        static Needs ofHost(HostFacts host) {
            GpuVendor vendor = host.gpuVendor().orElse(GpuVendor.ANY);
            return new Needs(false, "the host's own GPUs", host.gpus(vendor).size(), vendor, OptionalDouble.empty(),
                    false, OptionalInt.empty(), false, OptionalDouble.empty(), false, false);
        }

        /** Why a GPU check needs nothing. */
        String noGpus() {
            return fromPlan ? "none (CPU-only plan)" : "none (no plan, no GPUs)";
        }

        String explain(boolean explicit, String field) {
            return explicit ? "workload " + field : source;
        }
    }

    private static ProbeFinding gpuCount(HostFacts host, Needs needs) {
        List<Gpu> usable = host.gpus(needs.vendor());
        String found = describeGpus(host.gpus());
        if (needs.gpus() == 0) {
            return ProbeFinding.ok(Check.GPU_COUNT, found, needs.noGpus());
        }
        String needed = needs.gpus() + " " + vendorName(needs.vendor()) + " GPU" + plural(needs.gpus()) + " ("
                + needs.source() + ")";
        if (usable.size() >= needs.gpus()) {
            return ProbeFinding.ok(Check.GPU_COUNT, found, needed);
        }
        String fix = usable.isEmpty() && !gpuToolOk(host, needs.vendor())
                ? driverFix(needs.vendor())
                : "run on a host with " + needs.gpus() + " GPUs, or lower resources.gpus to " + usable.size();
        return new ProbeFinding(Check.GPU_COUNT, FindingStatus.MISSING, found, needed, fix);
    }

    private static ProbeFinding gpuVendor(HostFacts host, Needs needs) {
        String found = host.gpuVendor().map(PlanFit::vendorName).orElse("no GPUs visible");
        if (needs.gpus() == 0 || needs.vendor() == GpuVendor.ANY) {
            return ProbeFinding.ok(Check.GPU_VENDOR, found, needs.gpus() == 0 ? needs.noGpus() : "any");
        }
        String needed = vendorName(needs.vendor()) + " (" + needs.source() + ")";
        if (host.gpuVendor().isEmpty()) {
            return new ProbeFinding(Check.GPU_VENDOR, FindingStatus.MISSING, found, needed, driverFix(needs.vendor()));
        }
        if (!host.gpus(needs.vendor()).isEmpty()) {
            return ProbeFinding.ok(Check.GPU_VENDOR, found, needed);
        }
        return new ProbeFinding(Check.GPU_VENDOR, FindingStatus.MISSING, found, needed, "run on a host with "
                + vendorName(needs.vendor()) + " GPUs, or set resources.gpuVendor to "
                + host.gpuVendor().get().name().toLowerCase(Locale.ROOT) + " if the workload supports it");
    }

    private static ProbeFinding gpuMemory(HostFacts host, Needs needs) {
        List<Gpu> usable = host.gpus(needs.vendor() == GpuVendor.ANY ? GpuVendor.ANY : needs.vendor());
        OptionalDouble smallest = usable.stream().filter(g -> g.memoryGib().isPresent())
                .mapToDouble(g -> g.memoryGib().getAsDouble()).min();
        String found = usable.isEmpty() ? "no GPUs visible"
                : smallest.isPresent() ? gib(smallest.getAsDouble()) + " per GPU" : "unknown (not reported)";
        if (needs.gpus() == 0 || needs.gpuMemoryGib().isEmpty()) {
            return ProbeFinding.ok(Check.GPU_MEMORY, found, needs.gpus() == 0 ? needs.noGpus() : "any");
        }
        double need = needs.gpuMemoryGib().getAsDouble();
        String needed = ">= " + gib(need) + " per GPU (" + needs.explain(needs.gpuMemoryExplicit(),
                "resources.gpuMemoryGib") + ")";
        if (usable.isEmpty()) {
            return new ProbeFinding(Check.GPU_MEMORY, FindingStatus.MISSING, found, needed, driverFix(needs.vendor()));
        }
        if (smallest.isEmpty()) {
            return new ProbeFinding(Check.GPU_MEMORY, FindingStatus.WARN, found, needed,
                    "check the GPUs' memory with the vendor's tool (nvidia-smi or rocm-smi)");
        }
        if (smallest.getAsDouble() + 1e-9 >= need) {
            return ProbeFinding.ok(Check.GPU_MEMORY, found, needed);
        }
        return new ProbeFinding(Check.GPU_MEMORY, FindingStatus.MISSING, found, needed,
                "run on a host whose GPUs have at least " + gib(need) + ", or use a smaller model (quantize, shard "
                        + "across more GPUs)");
    }

    private static ProbeFinding gpuDriver(HostFacts host, Needs needs) {
        String found = driverFound(host);
        if (needs.gpus() == 0 || needs.vendor() == GpuVendor.ANY) {
            return ProbeFinding.ok(Check.GPU_DRIVER, found, needs.gpus() == 0 ? needs.noGpus() : "any");
        }
        String tool = needs.vendor() == GpuVendor.AMD ? "rocm-smi" : "nvidia-smi";
        String needed = vendorName(needs.vendor()) + " driver (" + tool + " answers)";
        if (gpuToolOk(host, needs.vendor())) {
            return ProbeFinding.ok(Check.GPU_DRIVER, found, needed);
        }
        return new ProbeFinding(Check.GPU_DRIVER, FindingStatus.MISSING, found, needed, driverFix(needs.vendor()));
    }

    private static ProbeFinding containerRuntime(HostFacts host, String runtime, SettingNames names) {
        if (runtime.equals("none")) {
            return ProbeFinding.ok(Check.CONTAINER_RUNTIME, engineFound(host.docker()) + "; "
                    + engineFound(host.podman()), "none (jobs run on the host)");
        }
        ContainerEngine engine = runtime.equals("docker") ? host.docker() : host.podman();
        String needed = runtime + " (" + names.containerRuntime() + ")";
        return switch (engine.state()) {
            case RUNNING -> ProbeFinding.ok(Check.CONTAINER_RUNTIME, engineFound(engine), needed);
            case UNREACHABLE -> new ProbeFinding(Check.CONTAINER_RUNTIME, FindingStatus.MISSING, engineFound(engine),
                    needed, runtime.equals("docker")
                            ? "start the daemon (sudo systemctl start docker) and let the SSH user reach it "
                                    + "(sudo usermod -aG docker USER, then log in again)"
                            : "run `podman info` on the host and fix what it reports");
            case ABSENT, UNKNOWN -> new ProbeFinding(Check.CONTAINER_RUNTIME, FindingStatus.MISSING,
                    engineFound(engine), needed, "install " + runtime + ", or apply the boot script (it installs "
                            + "the container runtime when the image lacks it), or set " + names.containerRuntime()
                            + " to none");
        };
    }

    private static ProbeFinding nvidiaRuntime(HostFacts host, Needs needs, String runtime) {
        String toolkit = host.nvidiaCtkVersion().map(v -> "NVIDIA Container Toolkit " + v)
                .orElse("no NVIDIA Container Toolkit (nvidia-ctk " + host.tool("nvidia-ctk").detail() + ")");
        if (needs.gpus() == 0 || needs.vendor() != GpuVendor.NVIDIA || runtime.equals("none")) {
            String why = needs.gpus() == 0 || needs.vendor() != GpuVendor.NVIDIA ? "no NVIDIA GPUs needed"
                    : "no container runtime";
            return ProbeFinding.ok(Check.CONTAINER_NVIDIA_RUNTIME, toolkit, "none (" + why + ")");
        }
        if (host.nvidiaCtkVersion().isEmpty()) {
            return new ProbeFinding(Check.CONTAINER_NVIDIA_RUNTIME, FindingStatus.MISSING, toolkit,
                    "NVIDIA Container Toolkit for " + runtime, DRIVER_FIX);
        }
        if (runtime.equals("podman")) {
            String needed = "NVIDIA CDI spec for podman (/etc/cdi/nvidia.yaml)";
            if (host.hasNvidiaCdiSpec()) {
                return ProbeFinding.ok(Check.CONTAINER_NVIDIA_RUNTIME, toolkit + ", CDI spec present", needed);
            }
            return new ProbeFinding(Check.CONTAINER_NVIDIA_RUNTIME, FindingStatus.MISSING, toolkit + ", no CDI spec",
                    needed, "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml");
        }
        String needed = "nvidia runtime registered with docker";
        ContainerEngine docker = host.docker();
        if (docker.listsNvidiaRuntime()) {
            return ProbeFinding.ok(Check.CONTAINER_NVIDIA_RUNTIME, toolkit + ", docker lists nvidia", needed);
        }
        String listed = docker.state() == ContainerEngine.State.RUNNING
                ? "docker lists only: " + String.join(" ", docker.runtimes()) : "docker not answering";
        // With the toolkit installed, `docker run --gpus` still works through its hook; only --runtime=nvidia fails.
        return new ProbeFinding(Check.CONTAINER_NVIDIA_RUNTIME, FindingStatus.WARN, toolkit + ", " + listed, needed,
                "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker");
    }

    private static ProbeFinding infiniband(HostFacts host, Needs needs) {
        List<IbPort> active = host.activeInfinibandPorts();
        String found;
        if (!active.isEmpty()) {
            List<String> names = active.stream().map(p -> p.device() + "/" + p.port()).toList();
            // Eight-port hosts are common; name the first and last rather than every port.
            String listed = names.size() <= 3 ? String.join(", ", names)
                    : names.get(0) + ", " + names.get(1) + ", ..., " + names.get(names.size() - 1);
            found = active.size() + " ACTIVE InfiniBand port" + plural(active.size()) + " (" + listed + ")";
        } else if (!host.infinibandPorts().isEmpty()) {
            found = "no ACTIVE InfiniBand port (" + host.infinibandPorts().stream()
                    .map(p -> p.device() + "/" + p.port() + " " + p.state() + " " + p.linkLayer())
                    .collect(Collectors.joining(", ")) + ")";
        } else {
            found = "no RDMA ports (ibv_devinfo " + (host.tool("ibv_devinfo").ok() ? "lists none"
                    : host.tool("ibv_devinfo").detail()) + ")";
        }
        if (!needs.infiniband()) {
            return ProbeFinding.ok(Check.INFINIBAND, found,
                    needs.fromPlan() ? "none (no RDMA in the plan)" : "none (no plan)");
        }
        String needed = ">= 1 ACTIVE InfiniBand port (multi-node RDMA plan)";
        if (!active.isEmpty()) {
            return ProbeFinding.ok(Check.INFINIBAND, found, needed);
        }
        return new ProbeFinding(Check.INFINIBAND, FindingStatus.MISSING, found, needed,
                "use an RDMA-capable size with the Ubuntu HPC image (microsoft-dsvm:ubuntu-hpc:2204), which has the "
                        + "InfiniBand drivers; `ibv_devinfo` must show state PORT_ACTIVE, link_layer InfiniBand");
    }

    private static ProbeFinding vcpus(HostFacts host, Needs needs) {
        String found = host.cpus().isPresent() ? host.cpus().getAsInt() + " CPUs" : "unknown (" + host.tool("cpus")
                .detail() + ")";
        if (needs.vcpus().isEmpty()) {
            return ProbeFinding.ok(Check.CPU_VCPUS, found, "any");
        }
        int need = needs.vcpus().getAsInt();
        String needed = ">= " + need + " vCPUs (" + needs.explain(needs.vcpusExplicit(), "resources.vcpus") + ")";
        if (host.cpus().isEmpty()) {
            return new ProbeFinding(Check.CPU_VCPUS, FindingStatus.WARN, found, needed, "check `nproc` on the host");
        }
        if (host.cpus().getAsInt() >= need) {
            return ProbeFinding.ok(Check.CPU_VCPUS, found, needed);
        }
        return new ProbeFinding(Check.CPU_VCPUS, needs.vcpusExplicit() ? FindingStatus.MISSING : FindingStatus.WARN,
                found, needed, "run on a host with at least " + need + " CPUs, or lower resources.vcpus");
    }

    private static ProbeFinding memory(HostFacts host, Needs needs) {
        String found = host.memoryGib().isPresent() ? gib(host.memoryGib().getAsDouble())
                : "unknown (" + host.tool("meminfo").detail() + ")";
        if (needs.memoryGib().isEmpty()) {
            return ProbeFinding.ok(Check.MEMORY, found, "any");
        }
        double need = needs.memoryGib().getAsDouble();
        String needed = ">= " + gib(need) + " (" + needs.explain(needs.memoryExplicit(), "resources.memoryGib") + ")";
        if (host.memoryGib().isEmpty()) {
            return new ProbeFinding(Check.MEMORY, FindingStatus.WARN, found, needed, "check /proc/meminfo on the host");
        }
        if (host.memoryGib().getAsDouble() + 1e-9 >= need) {
            return ProbeFinding.ok(Check.MEMORY, found, needed);
        }
        return new ProbeFinding(Check.MEMORY, needs.memoryExplicit() ? FindingStatus.MISSING : FindingStatus.WARN,
                found, needed, "run on a host with at least " + gib(need) + " of memory, or lower resources.memoryGib");
    }

    private static ProbeFinding disk(HostFacts host, SettingNames names) {
        String needed = ">= " + gib(LOW_DISK_GIB) + " free for images, checkpoints and logs";
        if (host.disk().isEmpty()) {
            return new ProbeFinding(Check.DISK, FindingStatus.WARN, "unknown (" + host.tool("disk").detail() + ")",
                    needed, "check `df -h` at the work directory");
        }
        DiskSpace disk = host.disk().get();
        String found = gib(disk.freeGib()) + " free at " + disk.path() + " (on " + disk.mountPoint() + ")";
        if (disk.freeGib() >= LOW_DISK_GIB) {
            return ProbeFinding.ok(Check.DISK, found, needed);
        }
        return new ProbeFinding(Check.DISK, disk.freeGib() < MIN_DISK_GIB ? FindingStatus.MISSING : FindingStatus.WARN,
                found, needed, "free space, or point " + names.workDir() + " at a larger disk (on Azure VMs "
                        + "the temporary disk /mnt is large but is wiped on deallocation)");
    }

    private static ProbeFinding bootMarker(HostFacts host) {
        BootMarker marker = host.bootMarker();
        String needed = "ready, or absent on hosts Gantry did not boot";
        String at = marker.time().map(t -> " at " + t).orElse("");
        return switch (marker.state()) {
            case READY -> ProbeFinding.ok(Check.BOOT_MARKER, "ready" + at, needed);
            case ABSENT -> ProbeFinding.ok(Check.BOOT_MARKER, "absent (" + ProbeScript.BOOT_MARKER_PATH + ")", needed);
            case BOOTING -> new ProbeFinding(Check.BOOT_MARKER, FindingStatus.WARN, "booting" + at, needed,
                    "wait for the boot script to finish; its steps log to /var/log/gantry/boot/");
            case FAILED -> new ProbeFinding(Check.BOOT_MARKER, FindingStatus.WARN, "failed" + at + ": "
                    + String.join(", ", marker.failed()), needed,
                    "read /var/log/gantry/boot/NAME.log for each failed step and the marker's check details");
            case UNREADABLE -> new ProbeFinding(Check.BOOT_MARKER, FindingStatus.WARN, "unreadable", needed,
                    "inspect " + ProbeScript.BOOT_MARKER_PATH + " on the host");
        };
    }

    private static boolean gpuToolOk(HostFacts host, GpuVendor vendor) {
        return switch (vendor) {
            case NVIDIA -> host.tool("nvidia-smi").ok();
            case AMD -> host.tool("rocm-smi").ok();
            case ANY -> host.tool("nvidia-smi").ok() || host.tool("rocm-smi").ok();
        };
    }

    private static String driverFix(GpuVendor vendor) {
        return vendor == GpuVendor.AMD
                ? "use the Ubuntu HPC ROCm image (microsoft-dsvm:ubuntu-hpc:2204-rocm), which has the AMD driver and "
                        + "ROCm, or install ROCm; `rocm-smi` must list the GPUs"
                : DRIVER_FIX;
    }

    private static String driverFound(HostFacts host) {
        List<String> parts = new ArrayList<>();
        ToolRun nvidia = host.tool("nvidia-smi");
        if (nvidia.ok()) {
            parts.add("NVIDIA driver " + host.nvidiaDriver().orElse("unknown")
                    + host.cudaVersion().map(c -> ", CUDA " + c).orElse(""));
        } else {
            parts.add("nvidia-smi " + nvidia.detail());
        }
        ToolRun rocm = host.tool("rocm-smi");
        parts.add(rocm.ok() ? "ROCm (rocm-smi answers)" : "rocm-smi " + rocm.detail());
        return String.join("; ", parts);
    }

    private static String describeGpus(List<Gpu> gpus) {
        if (gpus.isEmpty()) {
            return "no GPUs visible";
        }
        // Group identical models in order of first appearance: "8 x NVIDIA H100 80GB HBM3".
        List<String> names = gpus.stream().map(Gpu::name).distinct().toList();
        return names.stream().map(n -> gpus.stream().filter(g -> g.name().equals(n)).count() + " x " + n)
                .collect(Collectors.joining(", "));
    }

    private static String engineFound(ContainerEngine engine) {
        return switch (engine.state()) {
            case RUNNING -> engine.name() + " " + engine.version().orElse("(version unknown)")
                    + (engine.runtimes().isEmpty() ? "" : " (runtimes: " + String.join(" ", engine.runtimes()) + ")");
            case UNREACHABLE -> engine.name() + " not answering: " + engine.detail();
            case ABSENT -> engine.name() + " not installed";
            case UNKNOWN -> engine.name() + " not probed";
        };
    }

    private static String vendorName(GpuVendor vendor) {
        return switch (vendor) {
            case NVIDIA -> "NVIDIA";
            case AMD -> "AMD";
            case ANY -> "any";
        };
    }

    private static String plural(int n) {
        return n == 1 ? "" : "s";
    }

    /** GiB with at most one decimal and no trailing zero: {@code 79.6 GiB}, {@code 80 GiB}. */
    static String gib(double value) {
        return new BigDecimal(value).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + " GiB";
    }
}
