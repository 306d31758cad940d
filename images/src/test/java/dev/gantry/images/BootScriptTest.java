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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BootScriptTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String STEP = BootScript.LIB_DIR + "/gantry-step";
    private static final String CHECK = BootScript.LIB_DIR + "/gantry-boot-check";

    /** Steps the shell form leaves to the platform (Batch installs the runtime, wires GPUs and pulls images). */
    private static final Set<String> PLATFORM_STEPS = Set.of("container-runtime", "nvidia-container-runtime",
            "pull-image");
    private static final List<String> HOSTILE = List.of(
            "it's", "say \"hi\"", "$(touch /tmp/pwned)", "`id`", "a;b && c || d", "line1\nline2", "cr\rlf",
            "tab\there", "back\\slash", "naïve ☃ 🚀 日本語", "nel\u0085ls\u2028ps\u2029", "bom\uFEFF",
            "bell\u0007esc\u001b", "# not a comment", "key: value", "- item", "{a: [b]}", "&anchor *alias !tag",
            "|>%@", " leading and trailing ", "", "--marker", "${HOME}", "'\"'\"'", "'", "''", "\\'", "*", "~",
            "a\\", "GANTRY_BOOT_PROGRAM_END", "\nGANTRY_BOOT_PROGRAM_END\n", "EOF");

    private static final String HOSTILE_VARIABLE = "v=$(reboot);`x`\n\"q\" 'r' ☃";
    private static final String HOSTILE_MARKER = "/var/lib/gantry/ready \"$(x)\" '$(y)' ☃.json";

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
    void shellFormMatchesGoldenFile(String name, Plan plan, BootOptions options) {
        GOLDEN.assertMatches(name + ".sh", bootScript.shellScript(plan, options));
    }

    /**
     * Runs each shell form under /bin/sh with its commands printed instead of run: it writes Gantry's programs byte
     * for byte and runs exactly the cloud-config's commands, less the steps that install the container runtime, wire
     * GPUs into it and pull the image, which the platform does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void shellFormRunsTheCloudConfigsStepsLessTheRuntimeOnes(String name, Plan plan, BootOptions options,
            @TempDir Path dir) throws Exception {
        JsonNode doc = YAML.readTree(bootScript.cloudConfig(plan, options));
        List<List<String>> expected = new ArrayList<>();
        for (JsonNode entry : doc.get("runcmd")) {
            List<String> argv = argv(entry);
            if (!(argv.get(0).equals(STEP) && PLATFORM_STEPS.contains(argv.get(1)))) {
                expected.add(withoutWorkload(argv));
            }
        }

        List<List<String>> ran = runWithCommandsPrinted(bootScript.shellScript(plan, options), dir);

        assertEquals(expected, ran);
        for (JsonNode file : doc.get("write_files")) {
            String program = file.get("path").asText().substring(BootScript.LIB_DIR.length() + 1);
            Path written = dir.resolve(program);
            if (Files.exists(written) || !isRuntimeProgram(program)) {
                assertEquals(BootScript.resource(program), Files.readString(written, StandardCharsets.UTF_8),
                        program + " must reach the node byte for byte");
                assertTrue(Files.isExecutable(written), program + " must be executable");
            }
        }
    }

    /** The shell form boots a pool's nodes for every workload the pool will run, so it names none of them. */
    private static List<String> withoutWorkload(List<String> argv) {
        List<String> kept = new ArrayList<>(argv);
        int at = kept.indexOf("--workload");
        if (at >= 0) {
            kept.subList(at, at + 2).clear();
        }
        return kept;
    }

    @Test
    void theShellFormIsTheSameForEveryWorkloadOfAPool() {
        Plan one = plan(Workload.builder("one").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("true").build(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2);
        Plan other = plan(Workload.builder("other").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("false").build(), Fixtures.D4S_V5,
                ImageCatalog.DSVM_GEN2);
        assertEquals(bootScript.shellScript(one, BootOptions.defaults()),
                bootScript.shellScript(other, BootOptions.defaults()));
        assertTrue(bootScript.cloudConfig(one, BootOptions.defaults()).contains("\"--workload\", \"one\""),
                "the cloud-config of a VM of its own still names its workload");
    }

    @Test
    void shellFormLeavesTheRuntimeAndThePullToThePlatformAndChecksDockerOnlyForAContainer() throws Exception {
        Plan container = plan(Fixtures.workload().toBuilder().container("nvcr.io/nvidia/pytorch:24.05-py3").build(),
                Fixtures.NC24ADS_A100_V4, ImageCatalog.UBUNTU_ARM64);
        Plan bare = plan(Workload.builder("bare").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("true").build(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2);

        String withContainer = bootScript.shellScript(container, BootOptions.builder()
                .containerRuntime(BootOptions.ContainerRuntime.PODMAN).build());
        String withoutContainer = bootScript.shellScript(bare, BootOptions.defaults());

        for (String step : PLATFORM_STEPS) {
            assertFalse(withContainer.contains("'" + step + "'"), step + " is the platform's: " + withContainer);
        }
        assertFalse(withContainer.contains("install-container-runtime"), withContainer);
        assertTrue(withContainer.endsWith("'--runtime' 'docker' '--role' 'plain'\n"), withContainer);
        assertTrue(withoutContainer.endsWith("'--runtime' 'none' '--role' 'plain'\n"), withoutContainer);
    }

    /**
     * A start task that runs again while an earlier copy of a program still executes (or nodes sharing the directory,
     * as the Batch fake's do) must not fail writing it: writing over a running executable fails with ETXTBSY, so the
     * programs are written beside and renamed into place.
     */
    @Test
    void shellFormReplacesAProgramThatIsStillRunning(@TempDir Path dir) throws Exception {
        String script = bootScript.shellScript(plan(Workload.builder("bare").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("true").build(), Fixtures.D4S_V5,
                ImageCatalog.DSVM_GEN2), BootOptions.defaults());
        Path check = dir.resolve("gantry-boot-check");
        Files.copy(Path.of("/bin/sleep"), check);
        assertTrue(check.toFile().setExecutable(true));
        Process running = new ProcessBuilder(check.toString(), "60").start();
        try {
            List<List<String>> ran = runWithCommandsPrinted(script, dir);

            assertFalse(ran.isEmpty(), "the script ran to its commands");
            assertTrue(running.isAlive(), "the earlier copy still runs, from the file it started");
            assertTrue(Files.readString(check, StandardCharsets.ISO_8859_1).startsWith("#!/usr/bin/env python3\n"),
                    "the name now holds the new program");
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.map(p -> p.getFileName().toString()).filter(n -> n.contains(".new."))
                        .toList(), "no half-written program is left beside");
            }
        } finally {
            running.destroyForcibly();
        }
    }

    @Test
    void shellFormRefusesTheDcgmExporterWhereThePlatformGivesNoContainerRuntime() {
        Plan bare = plan(Workload.builder("bare").phase(dev.gantry.api.Phase.TRAINING)
                .model(dev.gantry.api.ModelClass.SMALL).command("true").build(), Fixtures.NC24ADS_A100_V4,
                ImageCatalog.DSVM_GEN2);
        BootOptions options = BootOptions.builder().monitoring(BootOptions.MonitoringAgent.DCGM_EXPORTER).build();

        GantryException e = assertThrows(GantryException.class, () -> bootScript.shellScript(bare, options));

        assertEquals("boot.monitoring", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("give the workload a container image or remove dcgm_exporter"),
                e.getMessage());
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
        Plan plan = plan(Fixtures.workload(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2);

        JsonNode doc = YAML.readTree(bootScript.cloudConfig(plan, hostileOptions()));

        List<String> user = null;
        for (JsonNode entry : doc.get("runcmd")) {
            List<String> argv = argv(entry);
            if (argv.get(1).equals("user-command-1")) {
                user = argv;
            }
        }
        assertEquals(hostileUserStep(), user);
        List<String> check = argv(doc.get("runcmd").get(doc.get("runcmd").size() - 1));
        assertEquals(HOSTILE_MARKER, check.get(check.indexOf("--marker") + 1));
    }

    @Test
    void hostileValuesArriveVerbatimThroughTheShellForm(@TempDir Path dir) throws Exception {
        List<List<String>> ran = runWithCommandsPrinted(bootScript.shellScript(
                plan(Fixtures.workload(), Fixtures.D4S_V5, ImageCatalog.DSVM_GEN2), hostileOptions()), dir);

        assertTrue(ran.contains(hostileUserStep()), ran.toString());
        List<String> check = ran.get(ran.size() - 1);
        assertEquals(HOSTILE_MARKER, check.get(check.indexOf("--marker") + 1));
    }

    /** A user command that prints every hostile value, with a hostile boot variable and marker path. */
    private static BootOptions hostileOptions() {
        List<String> command = new ArrayList<>(List.of("printf"));
        command.addAll(HOSTILE);
        return BootOptions.builder().userCommand(command).environment("WEIRD", HOSTILE_VARIABLE)
                .markerPath(HOSTILE_MARKER).build();
    }

    /** The step {@link #hostileOptions()}' user command must arrive as, element by element. */
    private static List<String> hostileUserStep() {
        List<String> expected = new ArrayList<>(List.of(STEP, "user-command-1",
                Integer.toString(BootScript.USER_COMMAND_TIMEOUT_SECONDS), "env", "WEIRD=" + HOSTILE_VARIABLE,
                "printf"));
        expected.addAll(HOSTILE);
        return expected;
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

    private static boolean isRuntimeProgram(String program) {
        return program.equals("install-container-runtime") || program.equals("configure-nvidia-runtime");
    }

    /**
     * Runs a shell form under /bin/sh with Gantry's programs written under {@code dir} and every command it would run
     * printed instead (its argument count, then each argument, NUL-terminated): the commands as the shell parsed them.
     */
    private static List<List<String>> runWithCommandsPrinted(String script, Path dir) throws Exception {
        String redirected = script
                .replace("\nmkdir -p '" + BootScript.LIB_DIR + "'", "\nmkdir -p '" + dir + "'")
                .replace("\ncat >'" + BootScript.LIB_DIR + "/", "\ncat >'" + dir + "/")
                .replace("\nchmod 0755 '" + BootScript.LIB_DIR + "/", "\nchmod 0755 '" + dir + "/")
                .replace("\nmv -f '" + BootScript.LIB_DIR + "/", "\nmv -f '" + dir + "/")
                .replace(".new.$$ '" + BootScript.LIB_DIR + "/", ".new.$$ '" + dir + "/")
                .replace("\n'" + BootScript.LIB_DIR + "/", "\nprinted '" + BootScript.LIB_DIR + "/")
                .replace("\nexec '" + BootScript.LIB_DIR + "/", "\nprinted '" + BootScript.LIB_DIR + "/");
        Path file = dir.resolve("boot.sh");
        Files.writeString(file, "printed() { printf '%s\\0' \"$#\" \"$@\"; }\n" + redirected, StandardCharsets.UTF_8);
        Process sh = new ProcessBuilder("/bin/sh", file.toString()).redirectErrorStream(true).start();
        byte[] out = sh.getInputStream().readAllBytes();
        assertTrue(sh.waitFor(30, TimeUnit.SECONDS));
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, sh.exitValue(), text);
        List<String> fields = new ArrayList<>(Arrays.asList(text.split("\0", -1)));
        assertEquals("", fields.remove(fields.size() - 1), "every field ends with NUL: " + text);
        List<List<String>> commands = new ArrayList<>();
        for (int i = 0; i < fields.size(); ) {
            int count = Integer.parseInt(fields.get(i));
            commands.add(List.copyOf(fields.subList(i + 1, i + 1 + count)));
            i += 1 + count;
        }
        return commands;
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
