package dev.gantry.core.spec;

import dev.gantry.api.Budget;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.YamlNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Binds a {@code budget:} mapping, of a workload ({@code maxPerHour}, {@code maxTotal}) or of a workflow
 * ({@code maxTotal} only: an hourly ceiling is a property of one workload's placement, so it belongs to each step's
 * workload).
 */
final class BudgetBinder {
    static final List<String> WORKLOAD_FIELDS = List.of("maxPerHour", "maxTotal");
    static final List<String> WORKFLOW_FIELDS = List.of("maxTotal");
    private static final Map<String, String> WORKFLOW_ELSEWHERE = Map.of("maxPerHour",
            "under a step's workload (spec.steps[].workload.budget.maxPerHour): a workflow's budget holds maxTotal "
                    + "only");

    private final Binder in;

    BudgetBinder(Binder in) {
        this.in = in;
    }

    /** The workload's budget written under {@code spec}, or empty (with problems reported) when it is not valid. */
    Optional<Budget> workload(YamlNode.Mapping spec) {
        return in.field(spec, "", "budget")
                .flatMap(n -> in.mapping(n, "budget", in.keyLocation(spec, "budget"), WORKLOAD_FIELDS))
                .flatMap(b -> bind(b, "maxPerHour: 120 (USD per hour, all nodes), maxTotal: 500 (USD for the whole "
                        + "run) or both"));
    }

    /** The workflow's budget written under {@code spec}, or empty (with problems reported) when it is not valid. */
    Optional<Budget> workflow(YamlNode.Mapping spec) {
        return in.field(spec, "", "budget")
                .flatMap(n -> in.mapping(n, "budget", in.keyLocation(spec, "budget"), WORKFLOW_FIELDS,
                        WORKFLOW_ELSEWHERE))
                .flatMap(b -> bind(b, "maxTotal: 500 (USD for the whole run, every step and attempt)"));
    }

    private Optional<Budget> bind(YamlNode.Mapping b, String example) {
        OptionalDouble perHour = in.number(b, "budget", "maxPerHour");
        OptionalDouble total = in.number(b, "budget", "maxTotal");
        if (b.entry("maxPerHour").isEmpty() && b.entry("maxTotal").isEmpty()) {
            if (b.entries().isEmpty()) { // else its unknown fields are reported, with the name they were close to
                in.report("budget", in.locate("budget"), "is empty: give " + example);
            }
            return Optional.empty();
        }
        if (b.entry("maxPerHour").isPresent() && perHour.isEmpty() || b.entry("maxTotal").isPresent()
                && total.isEmpty()) {
            return Optional.empty(); // not a number: reported by the binder
        }
        return in.construct("budget", () -> new Budget(perHour, total));
    }
}
