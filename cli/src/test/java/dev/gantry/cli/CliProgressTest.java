package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Progress of a run on standard error, never on standard output; --quiet; no colour with NO_COLOR. */
class CliProgressTest {
    /** An event line of a run's plain progress: "10:00:00  train  submitted  backend job ...". */
    static final String EVENT = "\\d\\d:\\d\\d:\\d\\d  \\S+  \\S+  .*";

    @TempDir
    Path home;
    @TempDir
    Path work;

    void workflow() throws IOException {
        Files.writeString(work.resolve("two.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: two}",
                "spec:",
                "  steps:",
                "    - name: first",
                "      workload: {phase: training, model: small, command: [echo, first]}",
                "    - name: second",
                "      dependsOn: [first]",
                "      workload: {phase: training, model: small, command: [echo, second]}",
                ""));
    }

    @Test
    void aRunsProgressIsOnStandardErrorAndItsJsonAloneOnStandardOutput() throws IOException {
        workflow();
        CliRun run = CliRun.run(home, work, "run", "two.yaml", "--output", "json");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.lines().anyMatch(l -> l.matches(EVENT)), run.err);
        JsonNode node = Json.MAPPER.readTree(run.out);
        assertEquals("SUCCEEDED", node.get("state").asText());
        assertEquals(run.out.strip(), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node).strip(),
                "nothing but the JSON on standard output");
    }

    @Test
    void quietLeavesOutTheProgressButNotTheResult() throws IOException {
        workflow();
        CliRun run = CliRun.run(home, work, "run", "two.yaml", "--quiet");

        assertEquals(0, run.exitCode, run.toString());
        assertFalse(run.err.lines().anyMatch(l -> l.matches(EVENT)), "no event lines with --quiet: " + run.err);
        assertTrue(run.out.contains("SUCCEEDED, 2 of 2 jobs done"), run.out);

        CliRun onTerminal = CliRun.onTerminal(home, work, "run", "two.yaml", "-q");
        assertEquals(0, onTerminal.exitCode, onTerminal.toString());
        assertFalse(onTerminal.err.contains("\033"), "no live view with --quiet: " + onTerminal.err);
        assertFalse(onTerminal.err.contains("elapsed "), onTerminal.err);
    }

    @Test
    void quietStillPrintsErrors() {
        CliRun run = CliRun.run(home, work, "run", "missing.yaml", "--quiet");

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("missing.yaml: no such file"), run.err);
    }

    @Test
    void noColorTurnsOffTheColoursOfHelp() {
        // picocli colours help only on a terminal; forced on here, as a terminal would have it.
        String before = System.getProperty("picocli.ansi");
        System.setProperty("picocli.ansi", "true");
        try {
            assertTrue(help(Map.of()).contains("\033["), "help is coloured on a terminal (forced): the test can "
                    + "tell colour from none");
            String plain = help(Map.of("NO_COLOR", "1"));
            assertFalse(plain.contains("\033"), plain);
            assertTrue(plain.contains("Usage: gantry plan"), plain);
        } finally {
            if (before == null) {
                System.clearProperty("picocli.ansi");
            } else {
                System.setProperty("picocli.ansi", before);
            }
        }
    }

    private String help(Map<String, String> extra) {
        StringWriter out = new StringWriter();
        Map<String, String> env = new HashMap<>(extra);
        env.put("HOME", home.toString());
        env.put("GANTRY_STATE_DIR", home.resolve("state").toString());
        int code = Main.run(new CliEnvironment(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true),
                env, work, home), "plan", "--help");
        assertEquals(0, code);
        return out.toString();
    }
}
