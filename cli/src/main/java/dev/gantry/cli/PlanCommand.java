package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gantry.api.Alternative;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.Gantry;
import dev.gantry.model.PlanJson;
import dev.gantry.model.PlanOverrides;
import dev.gantry.model.CatalogAge;
import dev.gantry.model.RunProvenance;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.model.SpecDocument;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "plan", description = {"Choose the VM size, region, capacity, image and orchestrator for workloads, "
        + "by Azure's guidance, and explain every step.", "Nothing is created or submitted."})
final class PlanCommand extends Verb {
    @Parameters(arity = "1..*", paramLabel = "SPEC", description = "Workload or workflow spec files (YAML).")
    List<Path> specs;

    @Option(names = "--region", paramLabel = "REGION", description = "Allowed region (repeatable); replaces the spec's.")
    List<String> regions = new ArrayList<>();

    @Option(names = "--spot", paramLabel = "POLICY", converter = SpotPolicyConverter.class,
            description = "never, allowed or preferred; replaces the spec's spot policy.")
    SpotPolicy spot;

    @Mixin
    QuotaOption quota;

    @Option(names = "--catalog", paramLabel = "FILE",
            description = "A VM catalog file (SkyPilot Azure CSV or Gantry's format) instead of the configured one.")
    Path catalog;

    @Override
    public Integer call() throws IOException {
        if (catalog != null) {
            root.catalogFile = env().workingDirectory().resolve(catalog);
        }
        Gantry gantry = root.gantry();
        PlanOverrides overrides = new PlanOverrides(List.copyOf(regions), Optional.ofNullable(spot));
        int exit = Main.OK;
        // With a subscription to ask, the search keeps to the sizes, zones and vCPU quota it allows; the plans of
        // this command share what was read of each region.
        quota.planWithinSubscription(gantry, env());
        // Made for JSON output only: Jackson's databind costs about 35 ms to start, which a text plan need not pay.
        ArrayNode results = output.json() ? Json.array() : null;
        boolean first = true;
        for (Path spec : specs) {
            Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
            String name = spec.toString();
            try {
                SpecDocument document = gantry.loadAny(file);
                name = document.name();
                if (!first && !output.json()) {
                    env().out().println();
                }
                if (document instanceof SpecDocument.WorkflowSpec workflow) {
                    WorkflowPlan plan = gantry.plan(workflow.workflow(), overrides);
                    // What a run of this plan would record as made from: shown now, so the two can be compared.
                    RunProvenance provenance = gantry.provenance(file, workflow, plan);
                    if (output.json()) {
                        results.add(WorkflowPlanView.json(plan, provenance));
                    } else {
                        WorkflowPlanView.print(env().out(), plan, provenance);
                    }
                } else {
                    Workload workload = ((SpecDocument.WorkloadSpec) document).workload();
                    Plan plan = gantry.plan(workload, overrides);
                    if (output.json()) {
                        results.add(PlanJson.toJson(plan));
                    } else {
                        printPlan(env().out(), plan);
                    }
                }
            } catch (GantryException e) {
                int code = Main.report(env(), root.debug, e);
                exit = Math.max(exit, code);
                if (output.json()) {
                    results.add(PlanJson.error(name, e));
                }
            }
            first = false;
        }
        if (output.json()) {
            // One spec prints one object; several print an array in the order given.
            Json.print(env().out(), specs.size() == 1 ? results.get(0) : results);
        }
        return exit;
    }

    static void printPlan(PrintWriter out, Plan plan) {
        out.println(plan.workload().name() + ": " + plan.nodes() + " x " + plan.vmSize().name() + " in "
                + plan.region() + ", " + (plan.spot() ? "spot" : "on-demand"));
        Table facts = new Table("FIELD", "VALUE");
        facts.row("hardware", hardware(plan));
        facts.row("price", String.format(Locale.ROOT, "$%.4f/h per node, $%.4f/h total (%s)",
                plan.pricePerHour().perNode(), plan.pricePerHour().total(), plan.pricePerHour().currency()));
        facts.row("estimate", plan.estimatedCost().isPresent()
                ? String.format(Locale.ROOT, "$%.2f for %.1f h", plan.estimatedCost().getAsDouble(),
                plan.estimatedHours().orElse(0)) : "- (add spec.estimate for a cost to completion)");
        facts.row("zones", plan.zones().isEmpty() ? "- (regional placement)" : String.join(", ", plan.zones()));
        facts.row("image", plan.image().name() + " (" + plan.image().id() + ")");
        facts.row("orchestrator", plan.orchestrator().recommended().backendName() + ": "
                + plan.orchestrator().reason());
        facts.row("catalog", plan.catalog().source() + ", " + CatalogAge.describe(plan.catalog(),
                LocalDate.now(ZoneOffset.UTC)));
        facts.print(out);
        out.println("reasons:");
        for (Reason reason : plan.reasons()) {
            out.println("  " + reason.rule() + "  " + reason.text());
        }
        for (String warning : plan.warnings()) {
            out.println("warning: " + warning);
        }
        if (!plan.alternatives().isEmpty()) {
            out.println("alternatives:");
            Table alternatives = new Table("  VM SIZE", "REGION", "CAPACITY", "$/H TOTAL", "LOST BECAUSE");
            for (Alternative alternative : plan.alternatives()) {
                alternatives.row("  " + alternative.vmSize(), alternative.region(),
                        alternative.spot() ? "spot" : "on-demand",
                        String.format(Locale.ROOT, "%.4f", alternative.pricePerHourTotal()), alternative.lostBecause());
            }
            alternatives.print(out);
        }
        out.flush();
    }

    private static String hardware(Plan plan) {
        String cpu = plan.vmSize().vcpus() + " vCPUs, " + trim(plan.vmSize().memoryGib()) + " GiB";
        if (plan.vmSize().gpu().isEmpty()) {
            return "CPU, " + cpu;
        }
        GpuSpec gpu = plan.vmSize().gpu().get();
        return "GPU, " + gpu.count() + " x " + gpu.model() + " (" + trim(gpu.memoryGib()) + " GiB, "
                + gpu.vendor().name().toLowerCase(Locale.ROOT) + "), " + cpu + (plan.vmSize().rdma() ? ", RDMA" : "");
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
