package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Interconnect;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BootScriptTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String STEP = BootScript.LIB_DIR + "/gantry-step";
    private static final String CHECK = BootScript.LIB_DIR + "/gantry-boot-check";

    private final BootScript bootScript = new BootScript(ImageCatalog.builtIn());

    private static Plan plan(Workload workload, VmSize size, VmImage image) {
        return Plan.builder(workload, size).region("eastus").image(image.ref()).build();
    }

    static Stream<Arguments> goldens() {
        Workload pytorch = Fixtures.workload().toBuilder().container("nvcr.io/nvidia/pytorch:24.05-py3").build();
        Workload multiNode = Fixtures.workload().toBuilder()
                .resources(Resources.builder().nodes(2).interconnect(Interconnect.INFINIBAND).build()).build();
        Workload rocm = Fixtures.workload().toBuilder().container("rocm/pytorch:rocm6.2_ubuntu22.04_py3.10").build();
        Workload cpu = Workload.builder("features").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("python", "fit.py").build();
        return Stream.of(
                Arguments.of("dsvm-single-gpu-docker",
                        plan(pytorch, Fixtures.NC24ADS_A100_V4, ImageCatalog.DSVM_GEN2),
                        BootOptions.builder().monitoring(BootOptions.MonitoringAgent.DCGM_EXPORTER).build()),
                Arguments.of("hpc-rdma-slurm-node",
                        plan(multiNode, Fixtures.ND96ISR_H100_V5, ImageCatalog.HPC),
                        BootOptions.builder().role(BootOptions.Role.SLURM_NODE)
                                .containerRuntime(BootOptions.ContainerRuntime.NONE).build()),
                Arguments.of("rocm-mi300x",
                        plan(rocm, Fixtures.ND96ISR_MI300X_V5, ImageCatalog.HPC_ROCM),
                        BootOptions.defaults()),
                Arguments.of("cpu-only",
                        plan(cpu, Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2),
                        BootOptions.builder().containerRuntime(BootOptions.ContainerRuntime.NONE)
                                .monitoring(BootOptions.MonitoringAgent.NODE_EXPORTER)
                                .userCommand("apt-get", "install", "-y", "htop")
                                .environment("DATA_DIR", "/mnt/data").build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void matchesGoldenFile(String name, Plan plan, BootOptions options) {
        GOLDEN.assertMatches(name + ".yaml", bootScript.cloudConfig(plan, options));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void isValidCloudConfigWithArgvRunCommands(String name, Plan plan, BootOptions options) throws IOException {
        String text = bootScript.cloudConfig(plan, options);

        assertTrue(text.startsWith("#cloud-config\n"), "cloud-init requires the #cloud-config header");
        JsonNode doc = YAML.readTree(text);
        assertTrue(doc.get("runcmd").isArray());
        for (JsonNode command : doc.get("runcmd")) {
            assertTrue(command.isArray(), "every runcmd entry must be an argv list: " + command);
        }
        List<String> written = new ArrayList<>();
        for (JsonNode file : doc.get("write_files")) {
            String path = file.get("path").asText();
            written.add(path);
            String program = path.substring(path.lastIndexOf('/') + 1);
            assertEquals(BootScript.resource(program), file.get("content").asText(),
                    program + " must reach the node byte for byte");
        }
        for (JsonNode command : doc.get("runcmd")) {
            for (String arg : argv(command)) {
                if (arg.startsWith(BootScript.LIB_DIR + "/")) {
                    assertTrue(written.contains(arg), arg + " is run but not written");
                }
            }
        }
        List<String> last = argv(doc.get("runcmd").get(doc.get("runcmd").size() - 1));
        assertEquals(CHECK, last.get(0), "the readiness check runs last");
        assertEquals(plan.gpusPerNode(), Integer.parseInt(last.get(last.indexOf("--gpus") + 1)));
        assertEquals(Boolean.toString(plan.vmSize().rdma()), last.get(last.indexOf("--rdma") + 1));
        assertEquals(BootOptions.DEFAULT_MARKER_PATH, last.get(last.indexOf("--marker") + 1));
    }

    @Test
    void slurmNodeInstallsEnrootAndPyxisAndChecksInfiniBand() throws IOException {
        Plan plan = plan(Fixtures.workload(), Fixtures.ND96ISR_H100_V5, ImageCatalog.HPC);
        JsonNode doc = YAML.readTree(bootScript.cloudConfig(plan, BootOptions.builder()
                .role(BootOptions.Role.SLURM_NODE).containerRuntime(BootOptions.ContainerRuntime.NONE).build()));

        List<String> steps = stepNames(doc);
        assertEquals(List.of("nvidia-container-runtime", "enroot-pyxis"), steps);
        List<String> check = argv(doc.get("runcmd").get(doc.get("runcmd").size() - 1));
        assertEquals("slurm", check.get(check.indexOf("--role") + 1));
        assertEquals("nvidia", check.get(check.indexOf("--gpu-vendor") + 1));
    }

    @Test
    void installsDockerOnlyWhenTheImageLacksIt() throws IOException {
        Plan dsvm = plan(Fixtures.workload(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2);
        Plan arm = plan(Fixtures.workload(), Fixtures.D4PS_V5, ImageCatalog.UBUNTU_ARM64);

        assertFalse(stepNames(YAML.readTree(bootScript.cloudConfig(dsvm, BootOptions.defaults())))
                .contains("container-runtime"));
        assertTrue(stepNames(YAML.readTree(bootScript.cloudConfig(arm, BootOptions.defaults())))
                .contains("container-runtime"));
    }

    @Test
    void userImageWithUnknownContentsGetsEverythingInstalledIfMissing() throws IOException {
        ImageCatalog catalog = ImageCatalog.withUserImage(ImageCatalog.parseImageRef("myorg:offer:sku:1.0"));
        Plan plan = Plan.builder(Fixtures.workload(), Fixtures.NC24ADS_A100_V4)
                .image(catalog.userImage().orElseThrow().ref()).build();

        List<String> steps = stepNames(YAML.readTree(new BootScript(catalog).cloudConfig(plan,
                BootOptions.defaults())));

        assertEquals(List.of("container-runtime", "nvidia-container-runtime"), steps);
    }

    @Test
    void hostileValuesArriveVerbatim() throws IOException {
        List<String> hostile = List.of(
                "it's", "say \"hi\"", "$(touch /tmp/pwned)", "`id`", "a;b && c || d", "line1\nline2", "cr\rlf",
                "tab\there", "back\\slash", "naïve ☃ 🚀 日本語", "nel\u0085ls\u2028ps\u2029", "bom\uFEFF",
                "bell\u0007esc\u001b", "# not a comment", "key: value", "- item", "{a: [b]}", "&anchor *alias !tag",
                "|>%@", " leading and trailing ", "", "--marker", "${HOME}", "'\"'\"'");
        List<String> command = new ArrayList<>(List.of("printf"));
        command.addAll(hostile);
        BootOptions options = BootOptions.builder()
                .userCommand(command)
                .environment("WEIRD", "v=$(reboot);`x`\n\"q\" 'r' ☃")
                .markerPath("/var/lib/gantry/ready \"$(x)\" ☃.json")
                .build();
        Plan plan = plan(Fixtures.workload(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2);

        JsonNode doc = YAML.readTree(bootScript.cloudConfig(plan, options));

        List<String> user = null;
        for (JsonNode entry : doc.get("runcmd")) {
            List<String> argv = argv(entry);
            if (argv.get(1).equals("user-command-1")) {
                user = argv;
            }
        }
        List<String> expected = new ArrayList<>(List.of(STEP, "user-command-1",
                Integer.toString(BootScript.USER_COMMAND_TIMEOUT_SECONDS), "env",
                "WEIRD=v=$(reboot);`x`\n\"q\" 'r' ☃", "printf"));
        expected.addAll(hostile);
        assertEquals(expected, user);
        List<String> check = argv(doc.get("runcmd").get(doc.get("runcmd").size() - 1));
        assertEquals("/var/lib/gantry/ready \"$(x)\" ☃.json", check.get(check.indexOf("--marker") + 1));
    }

    @Test
    void noSecretOrWorkloadEnvironmentIsWritten() {
        Workload withSecrets = Fixtures.workload().toBuilder()
                .env("WANDB_PROJECT", "plain-value-not-for-boot")
                .secret("HF_TOKEN", SecretRef.parse("https://myvault.vault.azure.net/secrets/hf-token"))
                .build();
        String text = bootScript.cloudConfig(plan(withSecrets, Fixtures.NC24ADS_A100_V4, ImageCatalog.DSVM_GEN2),
                BootOptions.defaults());

        assertFalse(text.contains("HF_TOKEN"), text);
        assertFalse(text.contains("hf-token"), text);
        assertFalse(text.contains("myvault"), text);
        assertFalse(text.contains("plain-value-not-for-boot"), text);
    }

    @Test
    void bootEnvironmentMayNotCarryAWorkloadSecret() {
        Workload withSecrets = Fixtures.workload().toBuilder().secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN"))
                .build();
        BootOptions options = BootOptions.builder().environment("HF_TOKEN", "hf_abc").build();

        GantryException e = assertThrows(GantryException.class, () -> bootScript.cloudConfig(
                plan(withSecrets, Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2), options));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("boot.environment.HF_TOKEN", e.problems().get(0).path());
        assertFalse(e.getMessage().contains("hf_abc"), "the value itself must not be echoed");
    }

    @Test
    void dcgmExporterNeedsNvidiaGpusAndAContainerRuntime() {
        BootOptions options = BootOptions.builder().monitoring(BootOptions.MonitoringAgent.DCGM_EXPORTER)
                .containerRuntime(BootOptions.ContainerRuntime.NONE).build();

        GantryException e = assertThrows(GantryException.class, () -> bootScript.cloudConfig(
                plan(Fixtures.workload(), Fixtures.ND96ISR_MI300X_V5, ImageCatalog.HPC_ROCM), options));

        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("Standard_ND96isr_MI300X_v5 has 8 AMD GPUs"), e.getMessage());
        assertTrue(e.getMessage().contains("runtime is none"), e.getMessage());
    }

    @Test
    void podmanWithNvidiaGetsCdiConfiguration() throws IOException {
        Plan plan = plan(Fixtures.workload(), Fixtures.NC24ADS_A100_V4, ImageCatalog.DSVM_GEN2);
        JsonNode doc = YAML.readTree(bootScript.cloudConfig(plan, BootOptions.builder()
                .containerRuntime(BootOptions.ContainerRuntime.PODMAN).build()));

        assertEquals(List.of("container-runtime", "nvidia-container-runtime"), stepNames(doc));
        for (JsonNode entry : doc.get("runcmd")) {
            List<String> argv = argv(entry);
            if (argv.get(0).equals(STEP)) {
                assertEquals("podman", argv.get(argv.size() - 1));
            }
        }
    }

    @Test
    void badOptionsReportEveryProblem() {
        List<String> withNul = List.of("echo", "a\0b");
        GantryException e = assertThrows(GantryException.class, () -> BootOptions.builder()
                .markerPath("ready.json")
                .userCommand(List.of())
                .userCommand(withNul)
                .userCommand("", "x")
                .userCommand("echo", "bad\uD800surrogate")
                .environment("1BAD", "x")
                .containerImage("ubuntu; rm -rf /")
                .build());

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("boot.commands[0]", "boot.commands[1][1]", "boot.commands[2][0]", "boot.commands[3][1]",
                        "boot.containerImage", "boot.environment.1BAD", "boot.markerPath"),
                e.problems().stream().map(Problem::path).sorted().toList(), e.getMessage());
    }

    @Test
    void markerPathMustNotEscapeWithDotDot() {
        GantryException e = assertThrows(GantryException.class,
                () -> BootOptions.builder().markerPath("/var/lib/../../etc/passwd").build());

        assertTrue(e.getMessage().contains("'/var/lib/../../etc/passwd'"), e.getMessage());
    }

    private static List<String> argv(JsonNode entry) {
        List<String> argv = new ArrayList<>();
        entry.forEach(element -> argv.add(element.asText()));
        return argv;
    }

    private static List<String> stepNames(JsonNode doc) {
        List<String> names = new ArrayList<>();
        for (JsonNode entry : doc.get("runcmd")) {
            List<String> argv = argv(entry);
            if (argv.get(0).equals(STEP) && !argv.get(1).startsWith("user-command") && !argv.get(1).equals("pull-image")) {
                names.add(argv.get(1));
            }
        }
        return names;
    }
}
