package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.Plan;
import dev.gantry.model.PlanJson;
import dev.gantry.model.RunProvenance;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.WorkflowPlan;
import java.io.PrintWriter;
import java.util.Locale;

/** How {@code gantry plan} shows a workflow: one row per job, then each job's full plan with its reasons. */
final class WorkflowPlanView {
    private WorkflowPlanView() {
    }

    static void print(PrintWriter out, WorkflowPlan plan, RunProvenance provenance) {
        long stepCount = plan.steps().stream().map(step -> step.step().name()).distinct().count();
        out.println("workflow " + plan.workflow().name() + ": " + plan.steps().size() + " job"
                + (plan.steps().size() == 1 ? "" : "s") + " in " + stepCount + " step" + (stepCount == 1 ? "" : "s")
                + ", dependencies first" + (plan.workflow().parallelism() > 0
                ? ", at most " + plan.workflow().parallelism() + " at once" : ""));
        Table table = new Table("STEP", "JOB", "DEPENDS ON", "ON FAILURE", "RETRIES", "PLAN", "$/H TOTAL");
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            StepDefinition definition = step.step();
            table.row(definition.name(), step.instance().name(),
                    definition.dependsOn().isEmpty() ? "-" : String.join(",", definition.dependsOn()),
                    definition.onFailure(), definition.retries().count(), placement(step.plan()),
                    String.format(Locale.ROOT, "%.4f", step.plan().pricePerHour().total()));
        }
        table.print(out);
        out.println(String.format(Locale.ROOT, "all jobs at once: $%.4f/h (an upper bound: dependent steps run one "
                + "after another)", plan.pricePerHourAllAtOnce()));
        plan.workflow().budget().ifPresent(budget -> budget.maxTotal().ifPresent(max -> out.println(String.format(
                Locale.ROOT, "budget: $%.4f for the whole run (warned at 80%%, stopped at 100%%)", max))));
        out.println("made from: " + provenance.specHash() + ", " + provenance.gitCommit()
                .map(commit -> "git " + commit.substring(0, Math.min(12, commit.length()))
                        + (provenance.gitDirty().orElse(false) ? " with changes not committed" : " (clean)"))
                .orElse("not in a git checkout") + ", catalog of " + provenance.catalogDate() + ", gantry "
                + provenance.gantryVersion());
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            out.println();
            PlanCommand.printPlan(out, step.plan());
        }
        out.flush();
    }

    static ObjectNode json(WorkflowPlan plan, RunProvenance provenance) {
        ObjectNode node = Json.object();
        node.put("workflow", plan.workflow().name());
        ObjectNode madeFrom = node.putObject("provenance");
        madeFrom.put("specHash", provenance.specHash());
        madeFrom.put("gitCommit", provenance.gitCommit().orElse(null));
        if (provenance.gitDirty().isPresent()) {
            madeFrom.put("gitDirty", provenance.gitDirty().get());
        } else {
            madeFrom.putNull("gitDirty");
        }
        madeFrom.put("catalogSource", provenance.catalogSource());
        madeFrom.put("catalogDate", provenance.catalogDate().toString());
        madeFrom.put("gantryVersion", provenance.gantryVersion());
        node.put("parallelism", plan.workflow().parallelism());
        node.put("pricePerHourAllAtOnce", plan.pricePerHourAllAtOnce());
        plan.workflow().budget().ifPresent(budget -> budget.maxTotal()
                .ifPresent(max -> node.putObject("budget").put("maxTotal", max)));
        ArrayNode jobs = node.putArray("jobs");
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            StepDefinition definition = step.step();
            ObjectNode job = jobs.addObject();
            job.put("step", definition.name());
            job.put("job", step.instance().name());
            ArrayNode dependsOn = job.putArray("dependsOn");
            definition.dependsOn().forEach(dependsOn::add);
            ObjectNode parameters = job.putObject("parameters");
            step.instance().parameters().forEach(parameters::put);
            ObjectNode retries = job.putObject("retries");
            retries.put("count", definition.retries().count());
            retries.put("backoff", definition.retries().backoff().toString());
            job.put("onFailure", definition.onFailure().toString());
            if (definition.timeout().isPresent()) {
                job.put("timeout", definition.timeout().get().toString());
            } else {
                job.putNull("timeout");
            }
            definition.outputs().forEach(job.putArray("outputs")::add);
            job.set("plan", PlanJson.toJson(step.plan()));
        }
        return node;
    }

    private static String placement(Plan plan) {
        return plan.nodes() + " x " + plan.vmSize().name() + " in " + plan.region() + ", "
                + (plan.spot() ? "spot" : "on-demand");
    }
}
