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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command tree in-process: output shapes, exit codes and error reporting. */
class CliTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    @Test
    void backendsJsonListsEveryDiscoveredBackendWithItsCapabilities() throws IOException {
        CliRun run = CliRun.run(home, work, "backends", "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        JsonNode array = Json.MAPPER.readTree(run.out);
        List<String> names = new ArrayList<>();
        array.forEach(b -> {
            names.add(b.get("name").asText());
            assertTrue(b.hasNonNull("description"), b.toString());
            assertTrue(b.get("capabilities").has("multiNode"), b.toString());
            assertTrue(b.get("capabilities").get("gpuVendors").isArray(), b.toString());
        });
        assertEquals(List.of("aks", "batch", "cyclecloud", "manual"), names);
        assertTrue(array.get(3).get("available").asBoolean());
        assertTrue(array.get(0).get("available").asBoolean(), "aks");
        assertTrue(array.get(1).get("available").asBoolean(), "batch");
        assertTrue(array.get(3).get("configured").asBoolean());
    }

    @Test
    void catalogShowSaysTheEmbeddedCatalogWasCopiedThatItsPriceDateIsUnknownAndHowToRefresh() throws IOException {
        CliRun run = CliRun.run(home, work, "catalog", "show");
        assertEquals(0, run.exitCode, run.toString());
        String first = run.out.lines().findFirst().orElseThrow();
        assertTrue(first.matches("catalog: SkyPilot Azure catalog \\(.*\\), copied 2026-11-29, (today|1 day ago|\\d+ days "
                + "ago); price date unknown \\(the source gives none\\); refresh with 'gantry catalog refresh "
                + "--region REGION'"), first);
        assertTrue(run.out.contains("\nzones: not recorded (they come from a refresh with a subscription: gantry catalog"
                + " refresh --region R --subscription ID); plans without a subscription to ask do not check zones\n"),
                run.toString());
        CliRun json = CliRun.run(home, work, "catalog", "show", "--output", "json");
        assertEquals(0, json.exitCode, json.toString());
        JsonNode node = Json.MAPPER.readTree(json.out);
        assertEquals("2026-11-29", node.get("date").asText());
        assertTrue(node.get("priceDate").isNull(), node.toString());
        assertEquals("copied 2026-11-29; price date unknown (the source gives none); refresh with 'gantry catalog "
                + "refresh --region REGION'", node.get("priceDateNote").asText());
        assertTrue(node.get("zones").asText().startsWith("not recorded"), node.toString());
    }

    @Test
    void backendsTableMarksTheConfiguredBackend() {
        CliRun run = CliRun.run(home, work, "backends");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.lines().anyMatch(l -> l.startsWith("manual *")), run.out);
        assertTrue(run.out.lines().findFirst().orElseThrow().startsWith("NAME"), run.out);
    }

    @Test
    void validateReportsEveryProblemAsFileLineColumnPathMessageAndExitsTwo() throws IOException {
        Path spec = work.resolve("bad.yaml");
        Files.writeString(spec, String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workload",
                "metadata:",
                "  name: demo",
                "spec:",
                "  phase: training",
                "  model: small",
                "  resources:",
                "    gpus: -1",
                "  command: [python3, train.py]",
                ""));
        CliRun run = CliRun.run(home, work, "validate", "bad.yaml");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.lines().anyMatch(l -> l.matches(".*bad\\.yaml:9:\\d+: resources\\.gpus: .*-1.*")),
                run.toString());
        assertFalse(run.err.contains("Exception"), run.err);
        assertFalse(run.err.contains("\tat "), run.err);
    }

    @Test
    void validateAcceptsAValidSpecWithExitZero() throws IOException {
        Files.writeString(work.resolve("ok.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workload",
                "metadata: {name: ok}",
                "spec:",
                "  phase: inference",
                "  model: small",
                "  command: [echo, hi]",
                ""));
        CliRun run = CliRun.run(home, work, "validate", "ok.yaml", "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("\"valid\" : true"), run.out);
    }

    private Path writeWorkflow() throws IOException {
        Path file = work.resolve("flow.yaml");
        Files.writeString(file, String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: flow}",
                "spec:",
                "  steps:",
                "    - name: serve",
                "      dependsOn: [train]",
                "      workload: {phase: inference, model: small, command: [echo, serve]}",
                "    - name: train",
                "      retries: {count: 2, backoff: 1m}",
                "      matrix: {LR: [\"0.1\", \"0.01\"]}",
                "      workload: {phase: training, model: small, command: [echo, train]}",
                ""));
        return file;
    }

    @Test
    void planOfAWorkflowPlansEveryJobDependenciesFirst() throws IOException {
        writeWorkflow();
        CliRun run = CliRun.run(home, work, "plan", "flow.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("workflow flow: 3 jobs in 2 steps, dependencies first"), run.out);
        int train = run.out.indexOf("train-0-1");
        int serve = run.out.indexOf("\nserve ");
        assertTrue(train > 0 && serve > train, "train's jobs come before serve's: " + run.out);
        assertTrue(run.out.contains("all jobs at once: $"), run.out);
        assertTrue(run.out.matches("(?s).*\\nmade from: sha256:[0-9a-f]{64}, not in a git checkout, catalog of "
                + "\\d{4}-\\d\\d-\\d\\d, gantry 0\\..*"), run.out);
        // Each job's own plan follows, with its reasons.
        assertEquals(3, run.out.split("reasons:", -1).length - 1, run.out);

        CliRun json = CliRun.run(home, work, "plan", "flow.yaml", "--output", "json");
        assertEquals(0, json.exitCode, json.toString());
        JsonNode node = Json.MAPPER.readTree(json.out);
        assertEquals("flow", node.get("workflow").asText());
        List<String> jobs = new ArrayList<>();
        double sum = 0;
        for (JsonNode job : node.get("jobs")) {
            jobs.add(job.get("job").asText());
            sum += job.get("plan").get("pricePerHour").get("total").asDouble();
        }
        assertEquals(List.of("train-0-1", "train-0-01", "serve"), jobs);
        assertEquals("0.01", node.get("jobs").get(1).get("parameters").get("LR").asText());
        assertEquals(2, node.get("jobs").get(0).get("retries").get("count").asInt());
        assertEquals("PT1M", node.get("jobs").get(0).get("retries").get("backoff").asText());
        assertEquals(sum, node.get("pricePerHourAllAtOnce").asDouble(), 1e-9);
        JsonNode provenance = node.get("provenance");
        assertTrue(provenance.get("specHash").asText().startsWith("sha256:"), provenance.toString());
        assertTrue(provenance.get("gitCommit").isNull(), provenance.toString());
        assertTrue(provenance.get("gitDirty").isNull(), provenance.toString());
        assertFalse(provenance.get("catalogSource").asText().isBlank(), provenance.toString());
    }

    @Test
    void validateOfAWorkflowSaysItsJobCount() throws IOException {
        writeWorkflow();
        CliRun run = CliRun.run(home, work, "validate", "flow.yaml");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals("flow.yaml: valid (workflow of 3 jobs)", run.out.strip());
        CliRun json = CliRun.run(home, work, "validate", "flow.yaml", "--output", "json");
        assertEquals(3, Json.MAPPER.readTree(json.out).get(0).get("jobs").asInt(), json.out);
    }

    @Test
    void aWorkflowAboveRunsMaxJobsIsRefusedAtItsLargestStepWithTheSettingToRaise() throws IOException {
        writeWorkflow();
        Files.writeString(work.resolve("gantry.yaml"), "apiVersion: gantry.dev/v1\nruns: {maxJobs: 2}\n");
        CliRun run = CliRun.run(home, work, "validate", "flow.yaml");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("flow.yaml:11:7: steps[1].matrix: step 'train' expands to 2 jobs (the workflow "
                + "to 3), above runs.maxJobs = 2; if the workflow is meant to run that many, raise runs.maxJobs to "
                + "3 or more"), run.err);
        CliRun plan = CliRun.run(home, work, "plan", "flow.yaml");
        assertEquals(2, plan.exitCode, "plan and run read the spec with the same limit: " + plan);
        assertTrue(plan.err.contains("runs.maxJobs = 2"), plan.err);

        Files.writeString(work.resolve("gantry.yaml"), "apiVersion: gantry.dev/v1\nruns: {maxJobs: 0}\n");
        CliRun zero = CliRun.run(home, work, "plan", "flow.yaml");
        assertEquals(2, zero.exitCode, zero.toString());
        assertTrue(zero.err.contains("runs.maxJobs: must be a whole number of 1 or more, got '0'"), zero.err);
    }

    @Test
    void validateOfAWorkflowWithACycleNamesItAndExitsTwo() throws IOException {
        Path file = writeWorkflow();
        Files.writeString(file, Files.readString(file).replace("    - name: train\n",
                "    - name: train\n      dependsOn: [serve]\n"));
        CliRun run = CliRun.run(home, work, "validate", "flow.yaml");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("flow.yaml:7:19: steps[0].dependsOn[0]: dependency cycle serve -> train -> serve"),
                run.err);
    }

    @Test
    void unknownOptionIsAUsageErrorWithASuggestion() {
        CliRun run = CliRun.run(home, work, "status", "--outptu", "json");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("gantry: error:"), run.err);
        assertTrue(run.err.contains("--output"), run.err);
    }

    @Test
    void badOutputFormatNamesTheAllowedValues() {
        CliRun run = CliRun.run(home, work, "backends", "--output", "yaml");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("must be table or json, got 'yaml'"), run.err);
    }

    @Test
    void unknownJobIsAUserErrorWithoutStackTrace() {
        CliRun run = CliRun.run(home, work, "status", "nope");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("no job 'nope'"), run.err);
        assertFalse(run.err.contains("Exception"), run.err);
    }

    @Test
    void debugShowsTheStackTrace() {
        CliRun run = CliRun.run(home, work, "--debug", "status", "nope");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("GantryException"), run.err);
    }

    @Test
    void statusWithNoJobsSaysHowToStartOne() {
        CliRun run = CliRun.run(home, work, "status");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("gantry run SPEC"), run.out);
        CliRun json = CliRun.run(home, work, "status", "--output", "json");
        assertEquals("[ ]", json.out.strip());
    }

    @Test
    void versionPrintsTheProjectVersion() {
        CliRun run = CliRun.run(home, work, "version", "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("\"version\" : \"0."), run.out);
    }

    @Test
    void doctorProbesTheLocalHostAsJson() throws IOException {
        CliRun run = CliRun.run(home, work, "doctor", "--output", "json");
        assertTrue(run.exitCode == 0 || run.exitCode == 1, run.toString());
        JsonNode report = Json.MAPPER.readTree(run.out).get(0);
        assertEquals("local", report.get("host").asText());
        assertTrue(report.get("facts").get("cpus").asInt() >= 1, run.out);
        assertTrue(report.get("checks").isArray() && report.get("checks").size() > 0, run.out);
        assertEquals(run.exitCode == 0, report.get("ok").asBoolean());
    }

    @Test
    void doctorRefusesAnUnknownHostNamingTheKnownOnes() {
        CliRun run = CliRun.run(home, work, "doctor", "--host", "gpu-7");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("no host 'gpu-7' in backend 'manual'; its hosts: local"), run.err);
    }

    @Test
    void vmListStartsEmptyAndDownNeedsNames() {
        CliRun list = CliRun.run(home, work, "vm", "list", "--output", "json");
        assertEquals(0, list.exitCode, list.toString());
        assertEquals("[ ]", list.out.strip());
        CliRun down = CliRun.run(home, work, "vm", "down");
        assertEquals(2, down.exitCode, down.toString());
        assertTrue(down.err.contains("name the VMs to delete, or pass --all"), down.err);
        CliRun unknown = CliRun.run(home, work, "vm", "down", "gpu-1");
        assertEquals(2, unknown.exitCode, unknown.toString());
        assertTrue(unknown.err.contains("no VM 'gpu-1' in the inventory"), unknown.err);
    }

    @Test
    void vmUpWithoutASubscriptionOrKeySaysHowToGetThemBeforeCallingAzure() throws IOException {
        Path quickstart = Path.of("..", "examples", "quickstart.yaml").toAbsolutePath().normalize();
        CliRun noKey = CliRun.run(home, work, "vm", "up", quickstart.toString(), "--resource-group", "rg",
                "--subscription", "00000000-0000-0000-0000-000000000000");
        assertEquals(2, noKey.exitCode, noKey.toString());
        assertTrue(noKey.err.contains("no SSH public key in ~/.ssh"), noKey.err);
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh").resolve("id_ed25519.pub"), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI test");
        CliRun missingGroup = CliRun.run(home, work, "vm", "up", quickstart.toString());
        assertEquals(2, missingGroup.exitCode, missingGroup.toString());
        assertTrue(missingGroup.err.contains("--resource-group"), missingGroup.err);
    }
}
