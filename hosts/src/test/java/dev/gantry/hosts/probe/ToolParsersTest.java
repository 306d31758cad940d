package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GpuVendor;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden parsing of real tool outputs, one table per tool: each row names a sample and the facts it must give.
 * GPUs are summarised as {@code COUNT x NAME MEMORY_GIB DRIVER} so that a row reads like the tool's output.
 */
class ToolParsersTest {

    private static String summary(List<Gpu> gpus) {
        return gpus.stream().map(g -> g.name() + " " + (g.memoryGib().isPresent()
                ? String.format(java.util.Locale.ROOT, "%.2f", g.memoryGib().getAsDouble()) : "?") + " "
                + g.driver().orElse("-")).collect(Collectors.groupingBy(s -> s, java.util.LinkedHashMap::new,
                        Collectors.counting())).entrySet().stream().map(e -> e.getValue() + " x " + e.getKey())
                .collect(Collectors.joining("; "));
    }

    @ParameterizedTest(name = "nvidia-smi {0}")
    @CsvSource(delimiter = '|', value = {
        "nvidia-smi/h100x8.csv          | 8 x NVIDIA H100 80GB HBM3 79.65 535.129.03",
        "nvidia-smi/a800x2.csv          | 2 x NVIDIA A800-SXM4-80GB 80.00 535.86.10",
        "nvidia-smi/t4.csv              | 1 x Tesla T4 15.00 460.32.03",
        "nvidia-smi/a10.csv             | 1 x NVIDIA A10 22.49 535.129.03",
        "nvidia-smi/quadro-rtx4000x2.csv | 2 x Quadro RTX 4000 8.00 535.129.03",
    })
    void nvidiaSmiGpus(String sample, String expected) {
        Parsed<List<Gpu>> parsed = NvidiaSmi.gpus(Samples.sample(sample));
        assertEquals(expected, summary(parsed.value()));
        assertEquals(List.of(), parsed.problems());
        assertTrue(parsed.value().stream().allMatch(g -> g.vendor() == GpuVendor.NVIDIA));
    }

    @Test
    void nvidiaSmiMalformedLinesAreProblemsNotExceptions() {
        Parsed<List<Gpu>> parsed = NvidiaSmi.gpus(Samples.sample("nvidia-smi/malformed.csv"));
        // The [N/A] GPU is still a GPU (count matters); the cut line is not.
        assertEquals("1 x NVIDIA A100-SXM4-40GB ? 535.129.03; 1 x NVIDIA A100-SXM4-40GB 40.00 535.129.03",
                summary(parsed.value()));
        assertEquals(List.of(
                "nvidia-smi: line 1: memory.total of 'NVIDIA A100-SXM4-40GB' is '[N/A]', expected MiB as a number",
                "nvidia-smi: line 2: expected 'NAME, MEMORY_MIB, DRIVER', got 'NVIDIA A100-SXM4-40GB'"),
                parsed.problems().stream().map(ProbeProblem::toString).toList());
    }

    @ParameterizedTest(name = "nvidia-smi header {0}")
    @CsvSource(delimiter = '|', value = {
        "nvidia-smi/header-535.txt       | 12.2 | 535.129.03",
        "nvidia-smi/header-440.txt       | 10.2 | 440.95.01",
        "nvidia-smi/header-a800.txt      | 12.2 | 535.86.10",
        "nvidia-smi/header-no-driver.txt | -    | -",
    })
    void nvidiaSmiHeader(String sample, String cuda, String driver) {
        String text = Samples.sample(sample);
        assertEquals(cuda, NvidiaSmi.cudaVersion(text).orElse("-"));
        assertEquals(driver, NvidiaSmi.driverVersion(text).orElse("-"));
    }

    @ParameterizedTest(name = "rocm-smi {0}")
    @CsvSource(delimiter = '|', value = {
        "rocm-smi/mi300x.json          | 8 x AMD Instinct MI300X OAM 191.69 -",
        "rocm-smi/mi250x.json          | 2 x AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2 63.98 -",
        "rocm-smi/mi100-lowercase.json | 2 x Arcturus GL-XL [AMD Instinct MI100] 31.98 -",
    })
    void rocmSmiGpus(String sample, String expected) {
        Parsed<List<Gpu>> parsed = RocmSmi.gpus(Samples.sample(sample));
        assertEquals(expected, summary(parsed.value()));
        assertEquals(List.of(), parsed.problems());
        assertTrue(parsed.value().stream().allMatch(g -> g.vendor() == GpuVendor.AMD));
    }

    @Test
    void rocmSmiCutOffJsonIsAProblem() {
        Parsed<List<Gpu>> parsed = RocmSmi.gpus(Samples.sample("rocm-smi/malformed.json"));
        assertEquals(List.of(), parsed.value());
        assertEquals(1, parsed.problems().size());
        assertTrue(parsed.problems().get(0).message().startsWith("malformed JSON at offset "),
                parsed.problems().toString());
    }

    @Test
    void rocmSmiUnreadableVramKeepsTheGpu() {
        Parsed<List<Gpu>> parsed = RocmSmi.gpus("{\"card0\": {\"Card Series\": \"AMD Instinct MI300X OAM\","
                + " \"VRAM Total Memory (B)\": \"N/A\"}}");
        assertEquals("1 x AMD Instinct MI300X OAM ? -", summary(parsed.value()));
        assertEquals("rocm-smi: card0: 'VRAM Total Memory (B)' is missing, expected a number of bytes",
                parsed.problems().get(0).toString());
    }

    @ParameterizedTest(name = "nvidia-ctk {0}")
    @CsvSource(delimiter = '|', value = {
        "nvidia-ctk/1.12.0.txt     | 1.12.0",
        "nvidia-ctk/1.13.5.txt     | 1.13.5",
        "nvidia-ctk/unexpected.txt | -",
    })
    void nvidiaCtkVersion(String sample, String expected) {
        Parsed<Optional<String>> parsed = NvidiaCtk.version(Samples.sample(sample));
        assertEquals(expected, parsed.value().orElse("-"));
        assertEquals(expected.equals("-") ? 1 : 0, parsed.problems().size());
    }

    @Test
    void cdiSpecsAreListedPaths() {
        assertEquals(List.of("/etc/cdi/nvidia.yaml", "/var/run/cdi/other.json"),
                NvidiaCtk.cdiSpecs("/etc/cdi/nvidia.yaml\n\n/var/run/cdi/other.json\n"));
    }

    @ParameterizedTest(name = "docker info {0}")
    @CsvSource(delimiter = '|', value = {
        "docker-info/nvidia-runtime.txt    | 0 | RUNNING     | 20.10.2 | io.containerd.runc.v2 nvidia runc | runc | true",
        "docker-info/no-nvidia.txt         | 0 | RUNNING     | 28.0.1  | io.containerd.runc.v2 runc        | runc | false",
        "docker-info/permission-denied.txt | 1 | UNREACHABLE | -       | ''                                | -    | false",
    })
    void dockerInfo(String sample, int status, ContainerEngine.State state, String version, String runtimes,
            String defaultRuntime, boolean nvidia) {
        ContainerEngine docker = DockerInfo.parse(Samples.section("docker-info", status, sample));
        assertEquals(state, docker.state());
        assertEquals(version, docker.version().orElse("-"));
        assertEquals(runtimes, String.join(" ", docker.runtimes()));
        assertEquals(defaultRuntime, docker.defaultRuntime().orElse("-"));
        assertEquals(nvidia, docker.listsNvidiaRuntime());
    }

    @Test
    void dockerUnreachableSaysWhy() {
        ContainerEngine docker = DockerInfo.parse(Samples.section("docker-info", 1, "docker-info/permission-denied.txt"));
        assertTrue(docker.detail().startsWith("ERROR: permission denied while trying to connect to the Docker daemon"),
                docker.detail());
        ContainerEngine absent = DockerInfo.parse(new ProbeSection("docker-info", 127, "gantry-probe: docker: not "
                + "installed"));
        assertEquals(ContainerEngine.State.ABSENT, absent.state());
    }

    @ParameterizedTest(name = "podman info {0}")
    @CsvSource(delimiter = '|', value = {
        "podman-info/crun.json        | crun | 5.7.0",
        "podman-info/runc-ubuntu.json | runc | 5.7.1",
    })
    void podmanInfo(String sample, String runtime, String version) {
        Parsed<ContainerEngine> parsed = PodmanInfo.parse(Samples.section("podman-info", 0, sample));
        assertEquals(ContainerEngine.State.RUNNING, parsed.value().state());
        assertEquals(List.of(runtime), parsed.value().runtimes());
        assertEquals(Optional.of(version), parsed.value().version());
        assertFalse(parsed.value().listsNvidiaRuntime());
    }

    @Test
    void podmanFailuresAreUnreachableOrProblems() {
        Parsed<ContainerEngine> failed = PodmanInfo.parse(new ProbeSection("podman-info", 125,
                "Error: default OCI runtime \"crun\" not found: invalid argument"));
        assertEquals(ContainerEngine.State.UNREACHABLE, failed.value().state());
        assertEquals("exit 125: Error: default OCI runtime \"crun\" not found: invalid argument",
                failed.value().detail());
        Parsed<ContainerEngine> malformed = PodmanInfo.parse(new ProbeSection("podman-info", 0, "{\"host\": {"));
        assertEquals(ContainerEngine.State.UNREACHABLE, malformed.value().state());
        assertEquals(1, malformed.problems().size());
    }

    @ParameterizedTest(name = "ibv_devinfo {0}")
    @CsvSource(delimiter = '|', value = {
        "ibv_devinfo/hc44rs-active.txt | mlx5_0/1 ACTIVE InfiniBand -",
        "ibv_devinfo/cx7-down.txt      | mlx5_0/1 DOWN InfiniBand -",
        "ibv_devinfo/roce-ethernet.txt | ib0/1 ACTIVE Ethernet -",
        "ibv_devinfo/verbose-rate.txt  | mlx5_ib0/1 ACTIVE InfiniBand 4X 50.0 Gbps",
    })
    void ibvDevinfo(String sample, String expected) {
        Parsed<List<IbPort>> parsed = IbvDevinfo.ports(Samples.sample(sample));
        assertEquals(expected, parsed.value().stream().map(p -> p.device() + "/" + p.port() + " " + p.state() + " "
                + p.linkLayer() + " " + p.rate().orElse("-")).collect(Collectors.joining("; ")));
        assertEquals(List.of(), parsed.problems());
    }

    @Test
    void ibvDevinfoIncompletePortsAreProblems() {
        Parsed<List<IbPort>> parsed = IbvDevinfo.ports(Samples.sample("ibv_devinfo/malformed.txt"));
        assertEquals(List.of(), parsed.value());
        assertEquals(List.of("ibv_devinfo: mlx5_0 port 1: missing link_layer",
                "ibv_devinfo: mlx5_1: port number 'x' is not a number"),
                parsed.problems().stream().map(ProbeProblem::toString).toList());
    }
}
