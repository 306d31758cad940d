package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.model.Money;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.budget.maxTotal} through {@code gantry run} on the manual backend's local transport: a real job that
 * would run for minutes is stopped when the run's cost table reaches the budget, warned at 80% first, and
 * {@code gantry status RUN} shows the budget beside the spend.
 */
class CliBudgetTest {
    /** How long the job may run before the budget is reached, at its plan's price. */
    private static final double SECONDS_OF_BUDGET = 8;

    @TempDir
    Path home;

    @TempDir
    Path work;

    private CliRun gantry(String... args) {
        return CliRun.run(home, work, args);
    }

    private void workflow(String budget) throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\nruns:\n  pollInterval: 1s\n");
        Files.writeString(work.resolve("flow.yaml"), String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workflow",
                "metadata: {name: capped}",
                "spec:",
                budget,
                "  steps:",
                "    - name: train",
                "      workload: {phase: training, model: small, spot: never, command: [sh, -c, \"echo started; "
                        + "sleep 300\"]}",
                "    - name: report",
                "      dependsOn: [train]",
                "      workload: {phase: training, model: small, command: [sh, -c, \"echo " + work.resolve("never")
                        + "; touch " + work.resolve("never") + "\"]}",
                ""));
    }

    /** {@link #SECONDS_OF_BUDGET} of the spec's first job at its plan's price, in USD. */
    private double budgetOf(String pricePointer) throws IOException {
        CliRun plan = gantry("plan", "flow.yaml", "--output", "json");
        assertEquals(0, plan.exitCode, plan.toString());
        double perHour = Json.MAPPER.readTree(plan.out).at(pricePointer).asDouble();
        assertTrue(perHour > 0, "the manual backend's plans carry the catalog's price: " + plan.out);
        return Money.round(perHour * SECONDS_OF_BUDGET / 3600);
    }

    @Test
    void aRunIsWarnedThenStoppedAtItsBudgetFailedWithItsCostTableAndStatusShowsTheBudget() throws IOException {
        workflow("");
        double budget = budgetOf("/jobs/0/plan/pricePerHour/total");
        workflow("  budget: {maxTotal: " + String.format(Locale.ROOT, "%.4f", budget) + "}");

        CliRun run = gantry("run", "flow.yaml");

        assertEquals(1, run.exitCode, run.toString());
        String max = "$" + Money.format(budget);
        assertTrue(run.err.lines().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d  run  budget-warning  80% of the "
                + "budget: \\$[0-9.]+ of \\" + max + ", the run's budget .*")), run.err);
        assertTrue(run.err.lines().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d  run  budget-reached  budget "
                + "reached: \\$[0-9.]+ of \\" + max + ", .*; cost by job: train \\$[0-9.]+ \\(running, 1 attempt\\)")),
                run.err);
        List<String> table = run.out.lines().toList();
        assertTrue(table.get(0).matches("run capped-\\S+ \\(workflow capped\\): FAILED, 2 of 2 jobs done, \\$[0-9.]+ "
                + "so far of a \\$" + String.format(Locale.ROOT, "%.4f", budget).replace(".", "\\.")
                + " budget \\(\\d+%\\), on backend manual \\(budget reached: \\$[0-9.]+ of \\" + max + "\\)"),
                table.get(0));
        assertTrue(table.stream().anyMatch(l -> l.matches("train +CANCELLED +1 +0 .*budget reached.*")), run.out);
        assertTrue(table.stream().anyMatch(l -> l.matches("report +SKIPPED +0 .*")), run.out);
        assertFalse(Files.exists(work.resolve("never")), "the step after the budget never ran");

        String id = table.get(0).split(" ")[1];
        CliRun status = gantry("status", id, "--output", "json");
        JsonNode node = Json.MAPPER.readTree(status.out);
        assertEquals(budget, node.at("/budget/maxTotal").asDouble(), 1e-9);
        assertTrue(node.get("cost").asDouble() >= 0.8 * budget, status.out);
        assertTrue(node.get("message").asText().startsWith("budget reached: $"), status.out);
    }

    @Test
    void aWorkloadWithATotalBudgetRunsAsAOneStepRunHeldToIt() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\nruns:\n  pollInterval: 1s\n");
        String spec = "apiVersion: gantry.dev/v1\nkind: Workload\nmetadata: {name: capped}\nspec:\n"
                + "  phase: training\n  model: small\n  spot: never\n"
                + "  command: [sh, -c, \"echo started; sleep 300\"]\n";
        Files.writeString(work.resolve("flow.yaml"), spec);
        double budget = budgetOf("/pricePerHour/total");
        Files.writeString(work.resolve("flow.yaml"), spec + "  budget: {maxTotal: "
                + String.format(Locale.ROOT, "%.4f", budget) + "}\n");

        CliRun run = gantry("run", "flow.yaml");

        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("gantry: capped has budget.maxTotal, so it runs as a one-step run that the run "
                + "engine holds to its budget"), run.err);
        assertTrue(run.out.contains("capped | started"), "its output is shown: " + run.out);
        assertTrue(run.err.lines().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d  run  budget-reached  budget "
                + "reached: \\$[0-9.]+ of \\$" + Money.format(budget).replace(".", "\\.") + ", the run's budget .*; "
                + "cost by job: capped \\$[0-9.]+ \\(running, 1 attempt\\)")), run.err);
        assertTrue(run.out.lines().anyMatch(l -> l.matches("run capped-\\S+ \\(workflow capped\\): FAILED, 1 of 1 jobs "
                + "done, \\$[0-9.]+ so far of a \\$[0-9.]+ budget \\(\\d+%\\), on backend manual "
                + "\\(budget reached: .*\\)")),
                run.out);
        assertTrue(run.out.lines().anyMatch(l -> l.matches("capped +CANCELLED +1 +0 .* budget reached: .*")), run.out);
    }
}
