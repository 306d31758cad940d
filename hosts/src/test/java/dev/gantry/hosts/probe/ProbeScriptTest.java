package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeScriptTest {

    @Test
    void scriptTextIsGolden() {
        Samples.assertGolden("probe-script.sh", ProbeScript.TEXT);
    }

    @Test
    void everySectionIsPrintedOnceInOrderAndTheTimeLimitMatchesTheConstant() {
        int last = -1;
        for (String name : ProbeScript.SECTIONS) {
            String call = List.of("os", "meminfo", "cdi-specs", "ready-marker").contains(name)
                    ? "begin " + name + "\n" : "probe " + name + " ";
            int at = ProbeScript.TEXT.indexOf(call);
            assertTrue(at > last, name + " is printed after the section before it");
            assertEquals(at, ProbeScript.TEXT.lastIndexOf(call), name + " is printed once");
            last = at;
        }
        assertTrue(ProbeScript.TEXT.contains("timeout " + ProbeScript.TIMEOUT_SECONDS + " \"$@\""));
        assertTrue(ProbeScript.TEXT.contains(ProbeScript.BOOT_MARKER_PATH));
    }

    @Test
    void argvKeepsTheWorkDirectoryOutOfTheScript() {
        List<String> argv = ProbeScript.argv("/data/it's \"mine\" $(reboot)");
        assertEquals(List.of("sh", "-c", ProbeScript.TEXT, "gantry-probe", "/data/it's \"mine\" $(reboot)"), argv);
    }

    /**
     * Runs the real script with {@code sh} on this machine and checks each section against what the machine has: a
     * tool missing from PATH must be reported as not installed and give no facts (this is how a host without GPUs
     * reads), a present one must have run. The work directory's name is hostile, so a successful {@code df} shows
     * it arrived verbatim.
     */
    @Test
    void runsLocallyAndReportsAbsentToolsCleanly(@TempDir Path tmp) throws Exception {
        Path workDir = Files.createDirectories(tmp.resolve("work dir 'q' \"dq\" $(touch pwned) ;x"));
        Process process = new ProcessBuilder(ProbeScript.argv(workDir.toString())).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "probe finished");
        assertEquals(0, process.exitValue(), output);

        ProbeOutput sections = ProbeOutput.parse(output);
        assertEquals(List.of(), sections.problems(), output);
        assertEquals(ProbeScript.SECTIONS, List.copyOf(sections.sections().keySet()));
        assertFalse(Files.exists(Path.of("pwned")) || Files.exists(workDir.resolve("pwned")), "no command ran");

        HostFacts facts = ProbeReport.parse(output, workDir.toString());
        assertEquals(0, sections.sections().get("disk").exitStatus(), output);
        assertTrue(facts.disk().orElseThrow().freeGib() > 0);
        assertTrue(facts.cpus().orElseThrow() >= 1);
        assertTrue(facts.memoryGib().orElseThrow() > 0);
        assertTrue(facts.kernel().isPresent() && facts.architecture().isPresent());

        Map<String, String> tools = Map.of("nvidia-smi", "nvidia-smi", "nvidia-smi-header", "nvidia-smi",
                "rocm-smi", "rocm-smi", "nvidia-ctk", "nvidia-ctk", "docker-info", "docker",
                "podman-info", "podman", "ibv_devinfo", "ibv_devinfo");
        tools.forEach((section, command) -> {
            ProbeSection s = sections.sections().get(section);
            if (onPath(command)) {
                assertFalse(s.notInstalled(), command + " is installed here");
            } else {
                assertEquals(ProbeScript.NOT_INSTALLED, s.exitStatus(), section);
                assertEquals("gantry-probe: " + command + ": not installed", s.body());
                assertEquals(ToolRun.Outcome.NOT_INSTALLED, facts.tool(section).outcome());
            }
        });
        if (!onPath("nvidia-smi")) {
            assertTrue(facts.gpus(dev.gantry.api.GpuVendor.NVIDIA).isEmpty());
            assertTrue(facts.cudaVersion().isEmpty());
        }
        if (!onPath("rocm-smi")) {
            assertTrue(facts.gpus(dev.gantry.api.GpuVendor.AMD).isEmpty());
        }
        if (!onPath("ibv_devinfo")) {
            assertTrue(facts.infinibandPorts().isEmpty());
        }
        if (!onPath("docker")) {
            assertEquals(ContainerEngine.State.ABSENT, facts.docker().state());
        }
        if (!Files.exists(Path.of(ProbeScript.BOOT_MARKER_PATH))) {
            assertEquals(BootMarker.State.ABSENT, facts.bootMarker().state());
        }
        // Whatever this machine has, the report renders and every check has a verdict.
        List<ProbeFinding> findings = PlanFit.survey(facts, "none");
        assertTrue(DoctorTable.render(findings).startsWith("CHECK"));
    }

    private static boolean onPath(String command) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aRelativeWorkDirectoryStartingWithADashIsAPathNotAnOption(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("-h dir"));
        Process process = new ProcessBuilder(ProbeScript.argv("-h dir")).directory(tmp.toFile())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "probe finished");
        ProbeSection disk = ProbeOutput.parse(output).sections().get("disk");
        assertEquals(0, disk.exitStatus(), disk.body());
        assertTrue(ProbeReport.parse(output, "-h dir").disk().isPresent());
    }

    @Test
    void remoteCommandQuotesOnlyTheWorkDirectory() {
        assertEquals("sh -s -- '/data/it'\\''s $(reboot)'", ProbeScript.remoteCommand("/data/it's $(reboot)"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ProbeScript.remoteCommand("/data\nrm -rf /"));
        assertEquals("workDir must not contain NUL or line breaks, got '/data\\nrm -rf /'", e.getMessage());
    }

    /** As an SSH exec channel runs it: the login shell parses the command line, the script arrives on stdin. */
    @Test
    void remoteCommandRunsTheScriptFromStdin(@TempDir Path tmp) throws Exception {
        Path workDir = Files.createDirectories(tmp.resolve("it's a \"dir\" $(touch pwned)"));
        Process process = new ProcessBuilder("sh", "-c", ProbeScript.remoteCommand(workDir.toString()))
                .directory(tmp.toFile()).redirectErrorStream(true).start();
        try (var stdin = process.getOutputStream()) {
            stdin.write(ProbeScript.TEXT.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "probe finished");
        ProbeOutput sections = ProbeOutput.parse(output);
        assertEquals(List.of(), sections.problems(), output);
        assertEquals(ProbeScript.SECTIONS, List.copyOf(sections.sections().keySet()), "no probe ate the script");
        assertEquals(0, sections.sections().get("disk").exitStatus(), output);
        assertFalse(Files.exists(tmp.resolve("pwned")), "no command ran from the directory name");
    }
}
