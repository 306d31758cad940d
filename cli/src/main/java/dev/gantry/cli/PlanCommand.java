package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gantry.api.Alternative;
import dev.gantry.api.ErrorCode;
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
import java.util.function.Function;
import picocli.CommandLine.Command;
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

    @Option(names = "--no-quota", description = "Do not check the subscription's sizes, zones and vCPU quota even "
            + "when AZURE_SUBSCRIPTION_ID is set.")
    boolean noQuota;

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
        String subscription = env().environment().get("AZURE_SUBSCRIPTION_ID");
        Optional<String> quota = noQuota || subscription == null || subscription.isBlank() ? Optional.empty()
                : Optional.of(subscription);
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
                    WorkflowPlan plan = withCapacity(quota, document.name(),
                            id -> id.isEmpty() ? gantry.plan(workflow.workflow(), overrides)
                                    : gantry.plan(workflow.workflow(), overrides, env().azure(), id.get()));
                    // What a run of this plan would record as made from: shown now, so the two can be compared.
                    RunProvenance provenance = gantry.provenance(file, workflow, plan);
                    if (output.json()) {
                        results.add(WorkflowPlanView.json(plan, provenance));
                    } else {
                        WorkflowPlanView.print(env().out(), plan, provenance);
                    }
                } else {
                    Workload workload = ((SpecDocument.WorkloadSpec) document).workload();
                    Plan plan = withCapacity(quota, document.name(),
                            id -> id.isEmpty() ? gantry.plan(workload, overrides)
                                    : gantry.plan(workload, overrides, env().azure(), id.get()));
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

    /**
     * Plans within the subscription's capacity when there is one to ask. When Azure cannot be read (no sign-in, no
     * role, the Azure module missing), the plan is made without it, as before, with a warning saying why; its Q1
     * reason says that quota and zones were not checked.
     */
    private <T> T withCapacity(Optional<String> subscription, String name,
                               Function<Optional<String>, T> planning) {
        if (subscription.isEmpty()) {
            return planning.apply(Optional.empty());
        }
        try {
            return planning.apply(subscription);
        } catch (GantryException e) {
            if (e.code() != ErrorCode.AUTH_FAILED && e.code() != ErrorCode.REMOTE_ERROR
                    && e.code() != ErrorCode.USAGE) {
                throw e;
            }
            env().err().println("gantry: warning: " + name + ": quota and zones not checked: "
                    + e.getMessage().lines().findFirst().orElse(""));
            env().err().flush();
            return planning.apply(Optional.empty());
        }
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
