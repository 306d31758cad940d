package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeOutputTest {

    @Test
    void splitsSectionsWithStatusAndDropsTheSeparatorNewline() {
        ProbeOutput out = ProbeOutput.parse("""
                ===gantry-probe:cpus===
                96

                ===gantry-probe-end:cpus:0===
                ===gantry-probe:nvidia-ctk===
                gantry-probe: nvidia-ctk: not installed

                ===gantry-probe-end:nvidia-ctk:127===
                ===gantry-probe:partial===
                no trailing newline
                ===gantry-probe-end:partial:3===
                """);
        assertEquals(new ProbeSection("cpus", 0, "96"), out.sections().get("cpus"));
        assertEquals(new ProbeSection("nvidia-ctk", 127, "gantry-probe: nvidia-ctk: not installed"),
                out.sections().get("nvidia-ctk"));
        assertEquals(new ProbeSection("partial", 3, "no trailing newline"), out.sections().get("partial"));
        assertEquals(List.of(), out.problems());
        assertEquals("not installed", out.sections().get("nvidia-ctk").failure());
        assertEquals("exit 3: no trailing newline", out.sections().get("partial").failure());
    }

    @Test
    void brokenFramingIsReportedNotThrown() {
        ProbeOutput out = ProbeOutput.parse("""
                motd: welcome to the cluster
                ===gantry-probe:os===
                ID=ubuntu
                ===gantry-probe:cpus===
                8
                ===gantry-probe-end:cpus:0===
                ===gantry-probe-end:disk:0===
                ===gantry-probe:cpus===
                9
                ===gantry-probe-end:cpus:0===
                ===gantry-probe:meminfo===
                MemTotal: 1 kB
                """);
        assertEquals(List.of(
                "output: text outside any section at line 1: 'motd: welcome to the cluster'",
                "os: no end line before the next section (line 4); its output is ignored",
                "disk: end line without a matching start (line 7)",
                "cpus: section appears twice; the first is kept",
                "meminfo: output ended before the section's end line (was the probe cut off?)"),
                out.problems().stream().map(ProbeProblem::toString).toList());
        assertEquals("8", out.sections().get("cpus").body());
        assertEquals(List.of("cpus"), List.copyOf(out.sections().keySet()));
    }

    @Test
    void timeoutIsNamed() {
        assertEquals("timed out after 30s", new ProbeSection("nvidia-smi", 124, "").failure());
    }
}
