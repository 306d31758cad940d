package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gantry run --label KEY=VALUE}: labels for the job over the workload's own, checked before anything runs. */
class RunLabelsTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    @BeforeEach
    void specs() throws IOException {
        Files.writeString(work.resolve("hello.yaml"), """
                apiVersion: gantry.dev/v1
                kind: Workload
                metadata:
                  name: hello
                  labels: {team: platform, owner: ana}
                spec:
                  phase: training
                  model: small
                  command: [sh, -c, 'echo hello']
                """);
        Files.writeString(work.resolve("flow.yaml"), """
                apiVersion: gantry.dev/v1
                kind: Workflow
                metadata: {name: flow}
                spec:
                  steps:
                    - name: one
                      workload:
                        phase: training
                        model: small
                        command: [sh, -c, 'echo one']
                """);
    }

    @Test
    void labelsAreAddedToTheWorkloadsOwnAndShownByStatus() throws IOException {
        CliRun run = CliRun.run(home, work, "run", "hello.yaml", "--idempotency-key", "labelled", "--label",
                "team=search", "--label", "stage=eval", "--label", "empty=");
        assertEquals(0, run.exitCode, run.toString());

        CliRun status = CliRun.run(home, work, "status", "--output", "json");
        assertEquals(0, status.exitCode, status.toString());
        JsonNode job = null;
        for (JsonNode node : Json.MAPPER.readTree(status.out)) {
            if (node.get("id").asText().equals("labelled")) {
                job = node;
            }
        }
        assertTrue(job != null, "no job 'labelled' in " + status.out);
        Map<String, String> labels = new TreeMap<>();
        job.get("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        assertEquals(Map.of("team", "search", "owner", "ana", "stage", "eval", "empty", ""), labels,
                "the option's labels over the spec's, on the same key the option's");
    }

    @Test
    void aKeyTheWorkloadsRuleRefusesIsAUsageErrorNamingTheOptionAndWhatIsAllowed() {
        CliRun run = CliRun.run(home, work, "run", "hello.yaml", "--label", "team=search", "--label", "-team=x");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("gantry: error: --label '-team=x': label keys must be 1-63 letters, digits, "
                + "'-', '_' or '.', got '-team' (allowed: keys of 1-63 letters, digits, '-', '_' or '.' that start "
                + "and end with a letter or digit; values of at most 63 characters)"), run.err);
        assertNothingRan();
    }

    @Test
    void aValueOverSixtyThreeCharactersIsAUsageError() {
        String value = "v".repeat(64);
        CliRun run = CliRun.run(home, work, "run", "hello.yaml", "--label", "note=" + value);
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("gantry: error: --label 'note=" + value + "': label values must be at most 63 "
                + "characters, got 64"), run.err);
        assertNothingRan();
    }

    @Test
    void aLabelWithoutAnEqualsSignIsAUsageErrorNamingTheForm() {
        CliRun run = CliRun.run(home, work, "run", "hello.yaml", "--label", "team");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--label") && run.err.contains("KEY=VALUE") && run.err.contains("team"),
                run.err);
        assertNothingRan();
    }

    @Test
    void aWorkflowTakesNoLabelOption() {
        CliRun run = CliRun.run(home, work, "run", "flow.yaml", "--label", "team=search");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("gantry: error: --label team=...: labels are given to a workload's job; a "
                + "workflow's steps take their workload's metadata.labels (set them in the spec)"), run.err);
        assertNothingRan();
    }

    private void assertNothingRan() {
        CliRun status = CliRun.run(home, work, "status", "--output", "json");
        assertEquals("[ ]", status.out.strip(), "a job was submitted: " + status);
    }
}
