package dev.gantry.images;

import static dev.gantry.images.ImageComponent.CONDA;
import static dev.gantry.images.ImageComponent.CUDA;
import static dev.gantry.images.ImageComponent.DCGM;
import static dev.gantry.images.ImageComponent.DOCKER;
import static dev.gantry.images.ImageComponent.INFINIBAND;
import static dev.gantry.images.ImageComponent.ML_FRAMEWORKS;
import static dev.gantry.images.ImageComponent.MPI;
import static dev.gantry.images.ImageComponent.NCCL;
import static dev.gantry.images.ImageComponent.NVIDIA_CONTAINER_TOOLKIT;
import static dev.gantry.images.ImageComponent.NVIDIA_DRIVER;
import static dev.gantry.images.ImageComponent.RCCL;
import static dev.gantry.images.ImageComponent.ROCM;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Problem;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The VM images Gantry knows and the rules that choose one for a VM size and workload. Rules are tried in the order
 * of their ids and the first that applies decides, so a choice is deterministic and carries the rule that made it:
 *
 * <ol>
 *   <li>{@code I1} a configured user image always wins (blocking incompatibilities fail with every problem);
 *   <li>{@code I2} an Arm64 size gets Ubuntu Server 22.04 Arm64: there is no Data Science VM image for Arm64;
 *   <li>{@code I3} AMD GPUs get Ubuntu HPC 22.04 ROCm;
 *   <li>{@code I4} an RDMA size, or a multi-node InfiniBand workload, gets Ubuntu HPC 22.04 (on sizes that boot
 *       Gen2);
 *   <li>{@code I5} a size that boots only Gen1 gets the Gen1 Data Science VM;
 *   <li>{@code I6} everything else gets the Gen2 Data Science VM.
 * </ol>
 *
 * <p>Instances are immutable; {@link #withUserImage} returns a new catalog.
 */
public final class ImageCatalog implements ImageChooser {
    /** Data Science VM for Linux (Ubuntu 22.04), Gen2: the default image. */
    public static final VmImage DSVM_GEN2 = new VmImage("Data Science VM Ubuntu 22.04",
            "microsoft-dsvm:ubuntu-2204:2204-gen2:latest", ImageRef.Kind.MARKETPLACE,
            EnumSet.of(NVIDIA_DRIVER, CUDA, NCCL, DOCKER, NVIDIA_CONTAINER_TOOLKIT, CONDA, ML_FRAMEWORKS), true,
            Set.of("V2"), Architecture.X64, false, "default image; NVIDIA driver, CUDA, Docker, conda and ML frameworks");
    /** The same Data Science VM for sizes that boot only Hyper-V Gen1. */
    public static final VmImage DSVM_GEN1 = new VmImage("Data Science VM Ubuntu 22.04 (Gen1)",
            "microsoft-dsvm:ubuntu-2204:2204:latest", ImageRef.Kind.MARKETPLACE,
            EnumSet.of(NVIDIA_DRIVER, CUDA, NCCL, DOCKER, NVIDIA_CONTAINER_TOOLKIT, CONDA, ML_FRAMEWORKS), true,
            Set.of("V1"), Architecture.X64, false, "Gen1 SKU of the Data Science VM for Gen1-only sizes");
    /** Ubuntu HPC 22.04: the InfiniBand stack with the NVIDIA GPU stack, for RDMA sizes. */
    public static final VmImage HPC = new VmImage("Ubuntu HPC 22.04",
            "microsoft-dsvm:ubuntu-hpc:2204:latest", ImageRef.Kind.MARKETPLACE,
            EnumSet.of(INFINIBAND, MPI, NVIDIA_DRIVER, CUDA, NCCL, DOCKER, NVIDIA_CONTAINER_TOOLKIT, DCGM), true,
            Set.of("V2"), Architecture.X64, false,
            "DOCA/Mellanox OFED, IPoIB, HPC-X/Intel MPI/MVAPICH2, NVIDIA driver, NCCL, Moby + NVIDIA container "
                    + "toolkit, DCGM");
    /** Ubuntu HPC 22.04 with ROCm instead of the NVIDIA stack, for AMD Instinct GPUs (ND MI300X v5). */
    public static final VmImage HPC_ROCM = new VmImage("Ubuntu HPC 22.04 ROCm",
            "microsoft-dsvm:ubuntu-hpc:2204-rocm:latest", ImageRef.Kind.MARKETPLACE,
            EnumSet.of(INFINIBAND, MPI, ROCM, RCCL, DOCKER), true,
            Set.of("V2"), Architecture.X64, true,
            "DOCA OFED, MPI, ROCm, RCCL, Moby; create VMs with security type Standard (Secure Boot off)");
    /** Plain Ubuntu Server 22.04 for Arm64 sizes, which no Data Science VM image supports. */
    public static final VmImage UBUNTU_ARM64 = new VmImage("Ubuntu Server 22.04 Arm64",
            "Canonical:0001-com-ubuntu-server-jammy:22_04-lts-arm64:latest", ImageRef.Kind.MARKETPLACE,
            EnumSet.noneOf(ImageComponent.class), true, Set.of("V2"), Architecture.ARM64, false,
            "no Data Science VM image exists for Arm64; plain Ubuntu, nothing preinstalled");

    private static final List<VmImage> BUILT_IN = List.of(DSVM_GEN2, DSVM_GEN1, HPC, HPC_ROCM, UBUNTU_ARM64);

    private static final Pattern URN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9][A-Za-z0-9._-]*){3}");
    private static final Pattern GALLERY_ID = Pattern.compile(
            "/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[A-Za-z0-9._()-]{1,90}/providers/Microsoft\\.Compute"
                    + "/galleries/[A-Za-z0-9._]{1,80}/images/[A-Za-z0-9._-]{1,80}(/versions/[0-9A-Za-z.]+)?",
            Pattern.CASE_INSENSITIVE);

    private final Optional<VmImage> userImage;

    private ImageCatalog(Optional<VmImage> userImage) {
        this.userImage = userImage;
    }

    /** The built-in images only. */
    public static ImageCatalog builtIn() {
        return new ImageCatalog(Optional.empty());
    }

    /**
     * Builds a catalog from the {@code image*} settings of the Gantry configuration; without an {@code image} key
     * it is {@link #builtIn()}.
     *
     * <ul>
     *   <li>{@code image}: a marketplace URN {@code publisher:offer:sku:version} or a Compute Gallery image ID;
     *   <li>{@code image.name}: a display name (default: the URN or ID);
     *   <li>{@code image.generations}: {@code V1}, {@code V2} or {@code V1,V2} (default {@code V2});
     *   <li>{@code image.architecture}: {@code x64} or {@code arm64} (default {@code x64});
     *   <li>{@code image.contents}: components the image ships, e.g. {@code nvidia_driver,cuda,docker}; when
     *       absent the contents are unknown and verified only at boot;
     *   <li>{@code image.secureBootOff}: {@code true} when VMs must be created with Secure Boot off.
     * </ul>
     *
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} with every problem found
     */
    public static ImageCatalog fromConfig(Map<String, String> config) {
        return UserImageSettings.bind(config).map(ImageCatalog::withImage).orElseGet(ImageCatalog::builtIn);
    }

    /** A catalog whose choice is always the given user image (contents unknown, Gen2, x64). */
    public static ImageCatalog withUserImage(ImageRef ref) {
        Objects.requireNonNull(ref, "ref");
        List<Problem> problems = validateId(ref.id());
        if (ref.kind() == ImageRef.Kind.HOST) {
            problems = List.of(Problem.of("image", "a user image must be a marketplace URN or a Compute Gallery "
                    + "image ID, got the host OS; omit the image setting to use the host"));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return withImage(new VmImage(ref.name(), ref.id(), kindOf(ref.id()), Set.of(), false, Set.of("V2"),
                Architecture.X64, false, "user image"));
    }

    /** A catalog whose choice is always the given user image, with its declared contents. */
    public static ImageCatalog withImage(VmImage image) {
        Objects.requireNonNull(image, "image");
        List<Problem> problems = validateId(image.id());
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return new ImageCatalog(Optional.of(image));
    }

    /** Parses a user's image setting: a marketplace URN or an Azure Compute Gallery image ID. */
    public static ImageRef parseImageRef(String id) {
        List<Problem> problems = validateId(id);
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return new ImageRef(id, id, kindOf(id));
    }

    static List<Problem> validateId(String id) {
        if (id != null && (URN.matcher(id).matches() || GALLERY_ID.matcher(id).matches())) {
            return List.of();
        }
        return List.of(Problem.of("image", "must be a marketplace URN publisher:offer:sku:version (e.g. "
                + DSVM_GEN2.id() + ") or a Compute Gallery image ID /subscriptions/SUB/resourceGroups/RG/providers/"
                + "Microsoft.Compute/galleries/GALLERY/images/DEFINITION[/versions/VERSION], got '" + id + "'"));
    }

    private static ImageRef.Kind kindOf(String id) {
        return id.startsWith("/") ? ImageRef.Kind.GALLERY : ImageRef.Kind.MARKETPLACE;
    }

    /** The built-in images, then the user image if one is configured. */
    public List<VmImage> entries() {
        List<VmImage> all = new ArrayList<>(BUILT_IN);
        userImage.ifPresent(all::add);
        return List.copyOf(all);
    }

    /** The configured user image, if any. */
    public Optional<VmImage> userImage() {
        return userImage;
    }

    /** The image with this URN or ID (the user image first), e.g. to learn what a plan's image contains. */
    public Optional<VmImage> find(String id) {
        if (userImage.isPresent() && userImage.get().id().equalsIgnoreCase(id)) {
            return userImage;
        }
        return BUILT_IN.stream().filter(image -> image.id().equalsIgnoreCase(id)).findFirst();
    }

    @Override
    public ImageChoice choose(VmSize size, Workload workload) {
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(workload, "workload");
        Decision decision = decide(size, workload);
        List<Problem> problems = ImageCompatibility.problems(decision.image(), size);
        if (!problems.isEmpty()) {
            // Only a user image can get here: built-in rules never pick an incompatible image for a known size
            // shape, and a user's explicit choice must fail loudly rather than be silently replaced.
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        List<String> warnings = new ArrayList<>(decision.warnings());
        warnings.addAll(ImageCompatibility.warnings(decision.image(), size, workload));
        return new ImageChoice(decision.image().ref(), List.of(decision.reason()),
                List.copyOf(new LinkedHashSet<>(warnings)));
    }

    private record Decision(VmImage image, Reason reason, List<String> warnings) {
    }

    private Decision decide(VmSize size, Workload workload) {
        if (userImage.isPresent()) {
            VmImage image = userImage.get();
            return new Decision(image, new Reason("I1", "using the configured image '" + image.name() + "' ("
                    + image.id() + ")"), List.of());
        }
        if (size.architecture() == Architecture.ARM64) {
            return new Decision(UBUNTU_ARM64, new Reason("I2", size.name() + " is an Arm64 size and no Data Science "
                    + "VM image exists for Arm64: using " + UBUNTU_ARM64.name() + " (" + UBUNTU_ARM64.id() + ")"),
                    List.of("no Data Science VM image exists for Arm64: " + UBUNTU_ARM64.name()
                            + " has no ML stack preinstalled; install it in a boot command or use your own image"));
        }
        boolean amd = size.gpu().map(gpu -> gpu.vendor() == GpuVendor.AMD).orElse(false);
        if (amd) {
            return new Decision(HPC_ROCM, new Reason("I3", size.name() + " has AMD " + size.gpu().get().model()
                    + " GPUs: using " + HPC_ROCM.name() + " (" + HPC_ROCM.id() + ") for ROCm, RCCL and InfiniBand"),
                    List.of());
        }
        boolean multiNodeInfiniBand = workload.resources().nodes() > 1
                && workload.resources().interconnect() == Interconnect.INFINIBAND;
        boolean gen2 = size.hyperVGenerations().contains("V2");
        if ((size.rdma() || multiNodeInfiniBand) && gen2) {
            String why = size.rdma() ? size.name() + " has RDMA (InfiniBand) networking"
                    : "the workload asks for InfiniBand across " + workload.resources().nodes() + " nodes";
            return new Decision(HPC, new Reason("I4", why + ": using " + HPC.name() + " (" + HPC.id()
                    + ") for its InfiniBand drivers, NCCL and MPI"), List.of());
        }
        if (!gen2) {
            return new Decision(DSVM_GEN1, new Reason("I5", size.name() + " boots only Hyper-V Gen1: using "
                    + DSVM_GEN1.name() + " (" + DSVM_GEN1.id() + ")"), List.of());
        }
        return new Decision(DSVM_GEN2, new Reason("I6", "default: " + DSVM_GEN2.name() + " (" + DSVM_GEN2.id()
                + ") with the NVIDIA driver, CUDA, Docker and ML frameworks"), List.of());
    }

    /** Binds the {@code image*} configuration keys to a user image. */
    private static final class UserImageSettings {
        private static final Set<String> KEYS = Set.of("image", "image.name", "image.generations",
                "image.architecture", "image.contents", "image.secureBootOff");

        static Optional<VmImage> bind(Map<String, String> config) {
            Objects.requireNonNull(config, "config");
            List<Problem> problems = new ArrayList<>();
            new TreeSet<>(config.keySet()).stream()
                    .filter(key -> key.startsWith("image.") && !KEYS.contains(key))
                    .forEach(key -> problems.add(Problem.of(key, "unknown image setting; allowed: "
                            + String.join(", ", new TreeSet<>(KEYS)))));
            String id = config.get("image");
            if (id == null) {
                config.keySet().stream().filter(KEYS::contains).sorted().findFirst().ifPresent(key ->
                        problems.add(Problem.of("image", "is required when " + key + " is set")));
                throwIfAny(problems);
                return Optional.empty();
            }
            problems.addAll(validateId(id.strip()));
            Set<String> generations = new TreeSet<>();
            for (String g : split(config.getOrDefault("image.generations", "V2"))) {
                String upper = g.toUpperCase(Locale.ROOT);
                if (upper.equals("V1") || upper.equals("V2")) {
                    generations.add(upper);
                } else {
                    problems.add(Problem.of("image.generations", "must be V1, V2 or V1,V2, got '" + g + "'"));
                }
            }
            if (generations.isEmpty() && split(config.getOrDefault("image.generations", "V2")).isEmpty()) {
                problems.add(Problem.of("image.generations", "must name at least one of V1, V2"));
            }
            Architecture architecture = Architecture.X64;
            String arch = config.getOrDefault("image.architecture", "x64").strip();
            try {
                architecture = Architecture.valueOf(arch.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                problems.add(Problem.of("image.architecture", "must be x64 or arm64, got '" + arch + "'"));
            }
            boolean contentsKnown = config.containsKey("image.contents");
            Set<ImageComponent> contents = EnumSet.noneOf(ImageComponent.class);
            if (contentsKnown) {
                for (String c : split(config.get("image.contents"))) {
                    try {
                        contents.add(ImageComponent.valueOf(c.toUpperCase(Locale.ROOT).replace('-', '_')));
                    } catch (IllegalArgumentException e) {
                        problems.add(Problem.of("image.contents", "unknown component '" + c + "'; allowed: "
                                + componentNames()));
                    }
                }
            }
            String secureBoot = config.getOrDefault("image.secureBootOff", "false").strip();
            if (!secureBoot.equals("true") && !secureBoot.equals("false")) {
                problems.add(Problem.of("image.secureBootOff", "must be true or false, got '" + secureBoot + "'"));
            }
            throwIfAny(problems);
            String trimmed = id.strip();
            String name = config.getOrDefault("image.name", trimmed).strip();
            return Optional.of(new VmImage(name.isEmpty() ? trimmed : name, trimmed, kindOf(trimmed), contents,
                    contentsKnown, generations, architecture, secureBoot.equals("true"), "user image"));
        }

        private static List<String> split(String value) {
            List<String> parts = new ArrayList<>();
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    parts.add(part.strip());
                }
            }
            return parts;
        }

        private static String componentNames() {
            List<String> names = new ArrayList<>();
            for (ImageComponent c : ImageComponent.values()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            return String.join(", ", names);
        }

        private static void throwIfAny(List<Problem> problems) {
            if (!problems.isEmpty()) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
            }
        }
    }
}
