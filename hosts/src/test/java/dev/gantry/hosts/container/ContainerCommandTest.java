package dev.gantry.hosts.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.Architecture;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden command lines, one argument per line, for Docker and Podman. */
class ContainerCommandTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/container");
    private static final String JOB = "job-train-42";
    private static final String ENV_FILE = "/var/lib/gantry/jobs/job-train-42/container.env";
    private static final List<String> ARGV = List.of("python", "train.py", "--lr=$LR; rm -rf ~", "it's \"quoted\"");

    private static final ContainerSettings DOCKER = new ContainerSettings(ContainerRuntime.DOCKER, "docker",
            List.of(), ContainerSettings.DEFAULT_ULIMITS, List.of());
    private static final ContainerSettings PODMAN = new ContainerSettings(ContainerRuntime.PODMAN, "podman",
            List.of(), ContainerSettings.DEFAULT_ULIMITS, List.of());
    /** The settings the tests use with Podman in a restricted sandbox. */
    private static final ContainerSettings PODMAN_SANDBOX = new ContainerSettings(ContainerRuntime.PODMAN,
            "/usr/bin/podman", List.of("--root", "/srv/podman/storage", "--runroot", "/srv/podman/run",
            "--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs", "--events-backend",
            "file"), List.of("nofile=1024:1024", "nproc=4096:4096"), List.of("--network=none"));

    private static VmSize size(String name, Optional<GpuSpec> gpu) {
        return new VmSize(name, "N", 96, 1900, gpu, gpu.isPresent(), Architecture.X64, Set.of("V2"));
    }

    private static final VmSize CPU = size("Standard_D4s_v5", Optional.empty());
    private static final VmSize H100X8 = size("Standard_ND96isr_H100_v5",
            Optional.of(new GpuSpec("H100", 8, 80, GpuVendor.NVIDIA)));
    private static final VmSize A100X2 = size("Standard_NC48ads_A100_v4",
            Optional.of(new GpuSpec("A100-80GB", 2, 80, GpuVendor.NVIDIA)));
    private static final VmSize MI300X = size("Standard_ND96isr_MI300X_v5",
            Optional.of(new GpuSpec("MI300X", 8, 192, GpuVendor.AMD)));

    private static Workload.Builder workload() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .container("nvcr.io/nvidia/pytorch:24.05-py3").command(ARGV);
    }

    private static final Workload PLAIN = workload().build();
    private static final Workload CHECKPOINTED = workload().workingDir("/workspace")
            .checkpoint(new Checkpoint("/mnt/checkpoints/train", Duration.ofMinutes(30))).build();

    static Stream<Arguments> cases() {
        Plan twoNodes = Plan.builder(CHECKPOINTED, H100X8).nodes(2).build();
        return Stream.of(
                Arguments.of("docker-cpu.txt", DOCKER, Plan.builder(PLAIN, CPU).build(), GpuSlice.none()),
                Arguments.of("docker-nvidia-all.txt", DOCKER, Plan.builder(CHECKPOINTED, H100X8).build(),
                        GpuSlice.first(8, 8)),
                Arguments.of("docker-nvidia-2-of-8.txt", DOCKER, Plan.builder(PLAIN, A100X2).build(),
                        GpuSlice.first(2, 8)),
                Arguments.of("docker-nvidia-gpus-2-3-of-8.txt", DOCKER, Plan.builder(PLAIN, A100X2).build(),
                        new GpuSlice(List.of(2, 3), 8)),
                Arguments.of("docker-amd.txt", DOCKER, Plan.builder(CHECKPOINTED, MI300X).build(),
                        GpuSlice.first(8, 0)),
                Arguments.of("docker-2-nodes-rdma.txt", DOCKER, twoNodes, GpuSlice.first(8, 8)),
                Arguments.of("podman-cpu-sandbox.txt", PODMAN_SANDBOX, Plan.builder(PLAIN, CPU).build(),
                        GpuSlice.none()),
                Arguments.of("podman-nvidia-all.txt", PODMAN, Plan.builder(CHECKPOINTED, H100X8).build(),
                        GpuSlice.first(8, 8)),
                Arguments.of("podman-nvidia-2-of-8.txt", PODMAN, Plan.builder(PLAIN, A100X2).build(),
                        GpuSlice.first(2, 8)),
                Arguments.of("podman-nvidia-gpus-2-3-of-8.txt", PODMAN, Plan.builder(PLAIN, A100X2).build(),
                        new GpuSlice(List.of(2, 3), 8)),
                Arguments.of("podman-amd.txt", PODMAN, Plan.builder(PLAIN, MI300X).build(), GpuSlice.first(8, 0)),
                Arguments.of("podman-2-nodes-rdma.txt", PODMAN, twoNodes, GpuSlice.first(8, 8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void runCommandMatchesGolden(String golden, ContainerSettings settings, Plan plan, GpuSlice gpus) {
        GOLDEN.assertLines(golden, ContainerCommand.run(settings, plan, JOB, ENV_FILE, gpus));
    }

    @Test
    void aMultiNodeJobKeepsTheNetworkTheSettingsChose() {
        ContainerSettings own = new ContainerSettings(ContainerRuntime.PODMAN, "podman", List.of(),
                ContainerSettings.DEFAULT_ULIMITS, List.of("--network", "host"));
        List<String> argv = ContainerCommand.run(own, Plan.builder(PLAIN, CPU).nodes(2).build(), JOB, ENV_FILE,
                GpuSlice.none());
        assertEquals(-1, argv.indexOf("--network=host"), argv.toString());
        assertEquals(1, argv.stream().filter(a -> a.equals("--network")).count(), argv.toString());
    }

    @Test
    void aGpuSizeWhoseWorkloadTakesNoGpuGetsNoDevices() {
        List<String> argv = ContainerCommand.run(PODMAN, Plan.builder(PLAIN, A100X2).build(), JOB, ENV_FILE,
                GpuSlice.none());
        assertEquals(-1, argv.indexOf("--device"), argv.toString());
    }

    @Test
    void networkOptionsAreReadInEveryForm() {
        assertEquals(Optional.of("none"), ContainerCommand.networkOption(List.of("--network=none")));
        assertEquals(Optional.of("slirp4netns"), ContainerCommand.networkOption(List.of("--net", "slirp4netns")));
        assertEquals(Optional.of("host"), ContainerCommand.networkOption(List.of("--shm-size=1g", "--net=host")));
        assertEquals(Optional.empty(), ContainerCommand.networkOption(List.of("--network-alias=x", "--shm-size=1g")));
    }

    @Test
    void removeCommandsMatchGolden() {
        GOLDEN.assertLines("docker-rm.txt", ContainerCommand.remove(DOCKER, "gantry-" + JOB));
        GOLDEN.assertLines("podman-rm-sandbox.txt", ContainerCommand.remove(PODMAN_SANDBOX, "gantry-" + JOB));
    }

    @Test
    void argumentsStaySeparateElementsAfterTheImage() {
        List<String> hostile = List.of("two words", "line one\nline two", "$(id)", "", "-n");
        Plan plan = Plan.builder(workload().command(hostile).build(), CPU).build();
        List<String> argv = ContainerCommand.run(PODMAN, plan, JOB, ENV_FILE, GpuSlice.none());
        int image = argv.indexOf("nvcr.io/nvidia/pytorch:24.05-py3");
        assertEquals(hostile, argv.subList(image + 1, argv.size()));
    }

    @Test
    void aGpuPlanOnAHostWithUnknownGpusGetsThemAll() {
        // nvidia-smi absent reads as 0 GPUs: pinning devices the host may not have would fail, "all" does not.
        List<String> argv = ContainerCommand.run(DOCKER, Plan.builder(PLAIN, A100X2).build(), JOB, ENV_FILE,
                GpuSlice.first(2, 0));
        assertEquals("all", argv.get(argv.indexOf("--gpus") + 1));
    }

    @Test
    void aStorageUrlCheckpointIsNotMounted() {
        Workload w = workload().checkpoint(new Checkpoint("https://acct.blob.core.windows.net/ckpt",
                Duration.ofMinutes(30))).build();
        List<String> argv = ContainerCommand.run(DOCKER, Plan.builder(w, CPU).build(), JOB, ENV_FILE,
                GpuSlice.none());
        assertEquals(-1, argv.indexOf("--volume"), argv.toString());
    }

    @Test
    void aWorkloadWithoutImageHasNoContainerCommand() {
        Workload bare = Workload.builder("bare").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true")
                .build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ContainerCommand.run(DOCKER, Plan.builder(bare, CPU).build(), JOB, ENV_FILE,
                        GpuSlice.none()));
        assertEquals("the workload bare has no container image", e.getMessage());
    }
}
