package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workflow runs through the command tree, on the manual backend's local transport: real jobs on this machine, each
 * step appending its name to a file so that the steps themselves count how often they ran.
 */
class CliWorkflowRunTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    private Path ran;

    @BeforeEach
    void configure() throws IOException {
        ran = work.resolve("ran.txt");
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\nruns:\n  pollInterval: 1s\n");
    }

    private Path workflow(String failingStep) throws IOException {
        Path file = work.resolve("flow.yaml");
        List<String> lines = new ArrayList<>(List.of(
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: flow}",
                "spec:",
                "  steps:"));
        for (String[] step : new String[][] {{"prepare", ""}, {"train", "prepare"}, {"eval", "prepare"},
                {"report", "train, eval"}}) {
            String exit = step[0].equals(failingStep) ? "; exit 3" : "";
            lines.add("    - name: " + step[0]);
            if (!step[1].isEmpty()) {
                lines.add("      dependsOn: [" + step[1] + "]");
            }
            lines.add("      workload: {phase: training, model: small, command: [sh, -c, \"echo " + step[0] + " >> "
                    + ran + "; echo output of " + step[0] + exit + "\"]}");
        }
        lines.add("");
        Files.writeString(file, String.join("\n", lines));
        return file;
    }

    private List<String> ranSteps() throws IOException {
        return Files.exists(ran) ? Files.readAllLines(ran) : List.of();
    }

    private CliRun gantry(String... args) {
        return CliRun.run(home, work, args);
    }

    @Test
    void aWorkflowRunsEachStepOnceDependenciesFirstAndIsThenListedExplainedAndLogged() throws IOException {
        workflow("none");
        CliRun run = gantry("run", "flow.yaml", "--output", "json");

        assertEquals(0, run.exitCode, run.toString());
        List<String> order = ranSteps();
        assertEquals(4, order.size(), order.toString());
        assertEquals("prepare", order.get(0));
        assertEquals("report", order.get(3));
        assertEquals(List.of("eval", "train"), order.subList(1, 3).stream().sorted().toList());
        JsonNode node = Json.MAPPER.readTree(run.out);
        String id = node.get("id").asText();
        assertEquals("SUCCEEDED", node.get("state").asText());
        assertEquals("4 of 4 jobs succeeded", node.get("message").asText());
        node.get("steps").forEach(step -> {
            assertEquals("SUCCEEDED", step.get("state").asText(), step.toString());
            assertEquals(1, step.get("attempts").asInt());
        });
        assertTrue(run.err.contains("gantry: started run " + id + " of workflow flow (4 jobs on backend manual"),
                run.err);
        assertTrue(run.err.lines().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d  train  submitted  backend job .*")),
                "plain progress lines when not on a terminal: " + run.err);

        CliRun list = gantry("list", "--all");
        assertEquals(0, list.exitCode, list.toString());
        assertTrue(list.out.lines().anyMatch(l -> l.matches(id + " +flow +SUCCEEDED +manual +.*")), list.out);
        assertTrue(gantry("list").out.contains("No unfinished runs"), "finished runs only with --all");

        CliRun status = gantry("status", id);
        assertEquals(0, status.exitCode, status.toString());
        assertTrue(status.out.startsWith("run " + id + " (workflow flow): SUCCEEDED, 4 of 4 jobs done, $"),
                status.out);
        assertTrue(status.out.lines().anyMatch(l -> l.matches("train +SUCCEEDED +1 +0 .*")), status.out);

        CliRun history = gantry("history", id, "--output", "json");
        JsonNode events = Json.MAPPER.readTree(history.out);
        assertEquals("started", events.get(0).get("kind").asText());
        assertEquals("ended", events.get(events.size() - 1).get("kind").asText());
        assertEquals(events.size(), events.get(events.size() - 1).get("sequence").asInt());
        List<String> mirrored = Files.readAllLines(home.resolve("state").resolve("runs").resolve(id
                + ".events.jsonl"));
        assertEquals(events.size(), mirrored.size(), "the JSON-lines event log holds the whole history once");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(events.get(i), Json.MAPPER.readTree(mirrored.get(i)));
        }

        CliRun logs = gantry("logs", id, "eval");
        assertEquals(0, logs.exitCode, logs.toString());
        assertEquals("output of eval", logs.out.strip());
        CliRun which = gantry("logs", id);
        assertEquals(2, which.exitCode, which.toString());
        assertTrue(which.err.contains("run " + id + " has 4 steps; name one: gantry logs " + id + " STEP, with STEP "
                + "one of eval, prepare, report, train"), which.err);

        CliRun again = gantry("run", "flow.yaml");
        assertEquals(0, again.exitCode, again.toString());
        assertTrue(again.err.contains("gantry: started run "), "a finished run is not resumed: " + again.err);
        assertEquals(8, ranSteps().size());
    }

    @Test
    void aFailedStepFailsTheRunWithExitOneAndItsDependentsAreSkipped() throws IOException {
        workflow("train");
        CliRun run = gantry("run", "flow.yaml");

        assertEquals(1, run.exitCode, run.toString());
        assertFalse(ranSteps().contains("report"), ranSteps().toString());
        assertTrue(run.out.startsWith("run flow-"), run.out);
        assertTrue(run.out.contains(": FAILED, 4 of 4 jobs done"), run.out);
        assertTrue(run.out.lines().anyMatch(l -> l.matches(
                "train +FAILED +1 +0 .*attempt 1 failed with exit code 3.*")), run.out);
        assertTrue(run.out.lines().anyMatch(l -> l.matches("report +SKIPPED +0 +0 .*")), run.out);
        assertFalse(run.err.contains("Exception"), run.err);
    }

    @Test
    void retryRunsAgainWhatFailedAndWhatWasSkippedBecauseOfItWithTheSameSpec() throws IOException {
        Path gate = work.resolve("gate");
        Path file = work.resolve("gated.yaml");
        Files.writeString(file, String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: gated}",
                "spec:",
                "  steps:",
                "    - name: build",
                "      workload: {phase: training, model: small, command: [sh, -c, \"echo build >> " + ran + "\"]}",
                "    - name: check",
                "      dependsOn: [build]",
                "      workload: {phase: training, model: small, command: [sh, -c, \"echo check >> " + ran
                        + "; test -f " + gate + "\"]}",
                "    - name: ship",
                "      dependsOn: [check]",
                "      workload: {phase: training, model: small, command: [sh, -c, \"echo ship >> " + ran + "\"]}",
                ""));
        CliRun first = gantry("run", "gated.yaml", "--output", "json");
        assertEquals(1, first.exitCode, first.toString());
        String id = Json.MAPPER.readTree(first.out).get("id").asText();
        assertEquals(List.of("build", "check"), ranSteps());

        CliRun nothing = gantry("retry", id, "build");
        assertEquals(2, nothing.exitCode, nothing.toString());
        assertTrue(nothing.err.contains("step build of run " + id + " succeeded; there is nothing to retry"),
                nothing.err);
        Files.writeString(gate, "open");
        CliRun retry = gantry("retry", id, "--output", "json");
        assertEquals(0, retry.exitCode, retry.toString());
        assertTrue(retry.err.contains("gantry: run " + id + ": retrying check, ship"), retry.err);
        JsonNode node = Json.MAPPER.readTree(retry.out);
        assertEquals("SUCCEEDED", node.get("state").asText());
        assertEquals(List.of("build", "check", "check", "ship"), ranSteps(), "build is not run again");
        assertEquals(2, node.get("steps").get(1).get("attempts").asInt(), node.toString());
        CliRun again = gantry("retry", id);
        assertEquals(2, again.exitCode, again.toString());
        assertTrue(again.err.contains("run " + id + " has no failed, cancelled or skipped step to retry"), again.err);
    }

    @Test
    void aDetachedRunIsDrivenByABackgroundGantryAndCanBeAttachedTo() throws IOException {
        workflow("none");
        CliRun run = gantry("run", "flow.yaml", "--detach");

        assertEquals(0, run.exitCode, run.toString());
        String id = run.out.strip();
        assertTrue(id.matches("flow-\\d{8}-\\d{6}-[0-9a-f]{6}"), run.out);
        CliRun attach = gantry("attach", id, "--output", "json");
        assertEquals(0, attach.exitCode, attach.toString());
        assertEquals("SUCCEEDED", Json.MAPPER.readTree(attach.out).get("state").asText());
        assertEquals(4, ranSteps().size(), "each step once, whichever process drove it: " + ranSteps());
    }

    @Test
    void cancellingARunSkipsWhatHasNotStarted() throws IOException {
        Path file = work.resolve("slow.yaml");
        Files.writeString(file, String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: slow}",
                "spec:",
                "  steps:",
                "    - name: wait",
                "      workload: {phase: training, model: small, command: [sleep, \"600\"]}",
                "    - name: after",
                "      dependsOn: [wait]",
                "      workload: {phase: training, model: small, command: [echo, after]}",
                ""));
        CliRun run = gantry("run", "slow.yaml", "--detach");
        assertEquals(0, run.exitCode, run.toString());
        String id = run.out.strip();
        CliRun cancel = gantry("cancel", id);
        assertEquals(0, cancel.exitCode, cancel.toString());
        CliRun attach = gantry("attach", id, "--output", "json");
        JsonNode node = Json.MAPPER.readTree(attach.out);
        assertEquals("CANCELLED", node.get("state").asText(), cancel + "\n" + attach);
        assertEquals(1, attach.exitCode);
        assertEquals("SKIPPED", node.get("steps").get(0).get("state").asText(), "after: " + node);
    }

    @Test
    void onATerminalTheStepsTableIsRedrawnInPlace() throws IOException {
        workflow("none");
        CliRun run = CliRun.onTerminal(home, work, "run", "flow.yaml");

        assertEquals(0, run.exitCode, run.toString());
        String drawn = run.err;
        assertTrue(drawn.contains("\033[J"), "the picture is cleared and drawn again: " + drawn);
        assertTrue(drawn.contains("STEP     STATE"), drawn);
        assertTrue(drawn.lines().anyMatch(l -> l.matches("elapsed \\S+: \\d+ active, \\d+ waiting, \\d+ done of 4")),
                "a progress line under the table: " + drawn);
        assertTrue(drawn.split("\033\\[J", -1).length > 2, "redrawn more than once: " + drawn);
        assertTrue(run.out.contains("SUCCEEDED, 4 of 4 jobs done"), run.out);
    }

    @Test
    void withLogsEachStepsOutputIsShownAfterItsName() throws IOException {
        workflow("none");
        CliRun run = gantry("run", "flow.yaml", "--logs");
        assertEquals(0, run.exitCode, run.toString());
        for (String step : List.of("prepare", "train", "eval", "report")) {
            assertTrue(run.out.lines().anyMatch(l -> l.equals(step + " | output of " + step)), run.out);
        }
    }

    @Test
    void anOutputAStepPrintsIsInTheEnvironmentOfTheStepAfterIt() throws IOException {
        Files.writeString(work.resolve("outputs.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: handoff}",
                "spec:",
                "  steps:",
                "    - name: make",
                "      outputs: [ARTIFACT]",
                "      workload: {phase: training, model: small, command: [sh, -c, 'echo gantry-output "
                        + "ARTIFACT=blob://store/model-7']}",
                "    - name: use",
                "      dependsOn: [make]",
                "      workload:",
                "        phase: inference",
                "        model: small",
                "        env: {MODEL: '${steps.make.outputs.ARTIFACT}'}",
                "        command: [sh, -c, 'echo \"using $MODEL\" >> " + ran + "']",
                ""));
        CliRun run = gantry("run", "outputs.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of("using blob://store/model-7"), ranSteps());
    }

    @Test
    void outputsWrittenToTheOutputsFileAndPrintedBothReachTheNextStep() throws IOException {
        Files.writeString(work.resolve("file-outputs.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: file-handoff}",
                "spec:",
                "  steps:",
                "    - name: make",
                "      outputs: [ARTIFACT, SCORE]",
                "      workload: {phase: training, model: small, command: [sh, -c, 'echo ARTIFACT=blob://store/m 8 "
                        + ">> \"$GANTRY_OUTPUTS\"; echo gantry-output SCORE=0.93']}",
                "    - name: use",
                "      dependsOn: [make]",
                "      workload:",
                "        phase: inference",
                "        model: small",
                "        env: {MODEL: '${steps.make.outputs.ARTIFACT}', SCORE: '${steps.make.outputs.SCORE}'}",
                "        command: [sh, -c, 'echo \"using $MODEL at $SCORE\" >> " + ran + "']",
                ""));
        CliRun run = gantry("run", "file-outputs.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of("using blob://store/m 8 at 0.93"), ranSteps());
    }

    @Test
    void anUnknownRunIsAUserError() {
        CliRun attach = gantry("attach", "nope-20261203-100000-abcdef");
        assertEquals(2, attach.exitCode, attach.toString());
        assertTrue(attach.err.contains("no run 'nope-20261203-100000-abcdef'; 'gantry list --all' lists known runs"),
                attach.err);
        assertFalse(attach.err.contains("\tat "), attach.err);
    }
}
