package dev.gantry.examples.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.Gantry;
import dev.gantry.api.backend.JobState;
import dev.gantry.model.JobRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PlatformRun on the manual backend's local transport, chosen by the example's own gantry.yaml and nothing else: the
 * job built in code runs with its labels, and the listener hears every step of the workflow and its output. The cli
 * module's tests run the same program on cyclecloud, aks and batch by configuration alone.
 */
class PlatformRunTest {
    @TempDir
    Path home;

    @Test
    void runsTheJobAndTheWorkflowOnTheBackendItsConfigurationNames() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (Gantry gantry = Gantry.builder().environment(Map.of()).home(home).workingDirectory(home)
                .configFile(Path.of("platform", "gantry.yaml").toAbsolutePath()).build();
                PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            Path workflow = Path.of("platform", "nightly.yaml").toAbsolutePath();
            assertTrue(PlatformRun.run(gantry, workflow, out), printed.toString());
            JobRecord job = gantry.storedJobs().stream().filter(j -> j.id().startsWith("platform-hello-"))
                    .findFirst().orElseThrow();
            assertEquals(JobState.SUCCEEDED, job.state());
            assertEquals(Map.of("team", "platform", "submitted-by", "platform-run"), job.labels());
        }
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(0).startsWith("plan: 1 x Standard_"), lines.get(0));
        assertTrue(lines.contains("| hello from platform code, job job-" + lines.get(1).split(" ")[1]
                + ", attempt 1"), printed.toString());
        for (String expected : List.of("step prepare: SUCCEEDED (attempt 1)", "prepare | prepared the data set",
                "train-0-01 | trained with learning rate 0.01", "step train-0-1: SUCCEEDED (attempt 1)")) {
            assertTrue(lines.contains(expected), "no line '" + expected + "' in:\n" + printed);
        }
        assertTrue(lines.get(lines.size() - 1).matches("run platform-nightly-\\S+: SUCCEEDED"), printed.toString());
    }

    @Test
    void readsTheConfigurationAndTheWorkflowFromItsCommandLine() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(Optional.of(new PlatformRun.Arguments(Optional.of(Path.of("c.yaml")), Path.of("w.yaml"))),
                PlatformRun.Arguments.parse(new String[] {"--config", "c.yaml", "w.yaml"}, errors));
        assertEquals(Optional.of(new PlatformRun.Arguments(Optional.empty(), PlatformRun.DEFAULT_WORKFLOW)),
                PlatformRun.Arguments.parse(new String[0], errors));
        assertEquals(Optional.empty(), PlatformRun.Arguments.parse(new String[] {"--backend", "aks"}, errors));
        assertEquals("PlatformRun: unexpected argument '--backend'; usage: PlatformRun [--config GANTRY_YAML] "
                + "[WORKFLOW_YAML]\n", err.toString(StandardCharsets.UTF_8));
    }
}
