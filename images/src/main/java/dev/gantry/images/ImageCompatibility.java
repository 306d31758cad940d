package dev.gantry.images;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether an image can boot and serve a workload on a VM size. {@link #problems} are blocking (the VM would not boot
 * or could not use its hardware); {@link #warnings} are things that work but deserve attention. Every message names
 * the image, the size, what is wrong and the fix. Problems are reported under the field {@code image}.
 */
public final class ImageCompatibility {
    private static final String FIELD = "image";

    private ImageCompatibility() {
    }

    /** Blocking incompatibilities: Hyper-V generation, CPU architecture, GPU vendor. */
    public static List<Problem> problems(VmImage image, VmSize size) {
        List<Problem> problems = new ArrayList<>();
        if (image.hyperVGenerations().stream().noneMatch(size.hyperVGenerations()::contains)) {
            problems.add(Problem.of(FIELD, String.format(Locale.ROOT,
                    "%s boots on Hyper-V generation %s but %s supports only %s; choose an image built for %s "
                            + "(for a Data Science VM: %s) or a size that supports %s",
                    describe(image), join(image.hyperVGenerations()), size.name(), join(size.hyperVGenerations()),
                    join(size.hyperVGenerations()), size.hyperVGenerations().contains("V2")
                            ? ImageCatalog.DSVM_GEN2.id() : ImageCatalog.DSVM_GEN1.id(),
                    join(image.hyperVGenerations()))));
        }
        if (image.architecture() != size.architecture()) {
            problems.add(Problem.of(FIELD, String.format(Locale.ROOT,
                    "%s is built for %s but %s has %s CPUs; use an %s image%s or a %s size",
                    describe(image), arch(image.architecture()), size.name(), arch(size.architecture()),
                    arch(size.architecture()), size.architecture() == Architecture.ARM64
                            ? " (" + ImageCatalog.UBUNTU_ARM64.id() + "; no Data Science VM image exists for Arm64)"
                            : "", arch(image.architecture()))));
        }
        size.gpu().ifPresent(gpu -> {
            if (!image.contentsKnown()) {
                return;
            }
            GpuVendor other = gpu.vendor() == GpuVendor.NVIDIA ? GpuVendor.AMD : GpuVendor.NVIDIA;
            if (!image.supportsGpus(gpu.vendor()) && image.supportsGpus(other)) {
                problems.add(Problem.of(FIELD, String.format(Locale.ROOT,
                        "%s ships the %s stack but %s has %s %s GPUs; use %s",
                        describe(image), other == GpuVendor.NVIDIA ? "NVIDIA/CUDA" : "AMD ROCm", size.name(),
                        gpu.count(), gpu.vendor().name(),
                        gpu.vendor() == GpuVendor.AMD
                                ? "an image with ROCm, e.g. " + ImageCatalog.HPC_ROCM.id()
                                : "an image with the NVIDIA driver, e.g. " + ImageCatalog.DSVM_GEN2.id())));
            }
        });
        return List.copyOf(problems);
    }

    /**
     * Advisory findings: an RDMA size or InfiniBand workload without InfiniBand drivers, a GPU size whose image ships
     * no GPU driver, unknown user-image contents, and images that need Secure Boot off.
     */
    public static List<String> warnings(VmImage image, VmSize size, Workload workload) {
        List<String> warnings = new ArrayList<>();
        boolean wantsInfiniBand = size.rdma()
                || (workload.resources().nodes() > 1 && workload.resources().interconnect() == Interconnect.INFINIBAND);
        if (wantsInfiniBand && image.contentsKnown() && !image.has(ImageComponent.INFINIBAND)) {
            warnings.add(String.format(Locale.ROOT,
                    "%s has no InfiniBand drivers (OFED) but %s%s; NCCL/MPI will fall back to TCP and run far "
                            + "slower. Use %s or install OFED in your image",
                    describe(image), size.name(), size.rdma() ? " is an RDMA size" : " was asked for InfiniBand",
                    ImageCatalog.HPC.id()));
        }
        if (wantsInfiniBand && !size.rdma()) {
            warnings.add(String.format(Locale.ROOT,
                    "workload %s asks for InfiniBand across %d nodes but %s has no RDMA networking; choose an "
                            + "RDMA size (names with 'r', e.g. Standard_ND96isr_H100_v5)",
                    workload.name(), workload.resources().nodes(), size.name()));
        }
        size.gpu().ifPresent(gpu -> {
            if (image.contentsKnown() && !image.supportsGpus(GpuVendor.ANY)) {
                warnings.add(String.format(Locale.ROOT,
                        "%s ships no GPU driver but %s has %d %s GPUs; the boot check will fail until a driver "
                                + "is installed. Use %s",
                        describe(image), size.name(), gpu.count(), gpu.vendor().name(),
                        gpu.vendor() == GpuVendor.AMD ? ImageCatalog.HPC_ROCM.id() : ImageCatalog.DSVM_GEN2.id()));
            }
        });
        if (!image.contentsKnown()) {
            warnings.add(String.format(Locale.ROOT,
                    "%s is a user image whose contents Gantry does not know; GPU driver, InfiniBand and container "
                            + "runtime are verified only at boot. Declare its contents to have them checked now",
                    describe(image)));
        }
        if (image.secureBootOff()) {
            warnings.add(String.format(Locale.ROOT,
                    "%s needs Secure Boot off: create %s VMs with security type Standard, not Trusted Launch",
                    describe(image), size.name()));
        }
        return List.copyOf(warnings);
    }

    private static String describe(VmImage image) {
        return "image '" + image.name() + "' (" + image.id() + ")";
    }

    private static String join(Set<String> values) {
        return String.join("/", new TreeSet<>(values));
    }

    private static String arch(Architecture architecture) {
        return architecture.name().toLowerCase(Locale.ROOT);
    }
}
