package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GantryException;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.backend.IdleResource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "gc", description = "Release what the backend (the configured one, or --backend NAME) created that "
        + "is idle and still costs money, such as a pool with no work for its idle timeout or a preempted node, after "
        + "checking again that nothing uses it; --dry-run only lists it. Backends that create nothing report nothing.")
final class GcCommand extends Verb {
    @Option(names = "--dry-run", description = "List what is idle and release nothing.")
    boolean dryRun;

    /** What became of one idle resource. */
    enum Result {
        DRY_RUN("would release", "dry-run"),
        RELEASED("released", "released"),
        KEPT("kept: in use again", "kept"),
        FAILED("failed", "failed");

        final String shown;
        final String json;

        Result(String shown, String json) {
            this.shown = shown;
            this.json = json;
        }
    }

    private record Outcome(IdleResource resource, Result result, Optional<String> error) {
    }

    @Override
    public Integer call() {
        Optional<String> backend = Optional.ofNullable(root.backend);
        String name = backend.orElseGet(() -> root.gantry().backendName());
        List<Outcome> outcomes = new ArrayList<>();
        for (IdleResource resource : root.gantry().idleResources(backend)) {
            outcomes.add(dryRun ? new Outcome(resource, Result.DRY_RUN, Optional.empty()) : release(backend, resource));
        }
        if (output.json()) {
            printJson(name, outcomes);
        } else {
            printTable(name, outcomes);
        }
        return outcomes.stream().anyMatch(o -> o.result() == Result.FAILED) ? Main.RUNTIME_FAILURE : Main.OK;
    }

    /** One release; a failure is reported and the others still go on. */
    private Outcome release(Optional<String> backend, IdleResource resource) {
        try {
            return new Outcome(resource, root.gantry().release(backend, resource) ? Result.RELEASED : Result.KEPT,
                    Optional.empty());
        } catch (GantryException e) {
            env().err().println("gantry: error: could not release " + resource.describe() + ": " + e.getMessage());
            return new Outcome(resource, Result.FAILED, Optional.of(e.code() + ": " + e.getMessage()));
        }
    }

    private void printTable(String backend, List<Outcome> outcomes) {
        if (outcomes.isEmpty()) {
            env().out().println("gantry: backend '" + backend + "' has nothing idle to release");
            return;
        }
        Table table = new Table("KIND", "ID", "LOCATION", "IDLE SINCE", "COST/HOUR", "REASON", "RESULT");
        for (Outcome outcome : outcomes) {
            IdleResource r = outcome.resource();
            table.row(r.kind(), r.id(), r.location().orElse("-"),
                    r.idleSince().map(at -> at.truncatedTo(ChronoUnit.SECONDS).toString()).orElse("-"),
                    r.costPerHour().map(GcCommand::price).orElse("-"), r.reason(), outcome.result().shown);
        }
        table.print(env().out());
        env().out().println("gantry: backend '" + backend + "': " + summary(outcomes));
    }

    private void printJson(String backend, List<Outcome> outcomes) {
        ObjectNode root = Json.object();
        root.put("backend", backend);
        root.put("dryRun", dryRun);
        ArrayNode resources = root.putArray("resources");
        for (Outcome outcome : outcomes) {
            IdleResource r = outcome.resource();
            ObjectNode node = resources.addObject();
            node.put("kind", r.kind());
            node.put("id", r.id());
            r.location().ifPresentOrElse(value -> node.put("location", value), () -> node.putNull("location"));
            node.put("reason", r.reason());
            r.idleSince().ifPresentOrElse(at -> node.put("idleSince", at.toString()), () -> node.putNull("idleSince"));
            r.costPerHour().ifPresentOrElse(price -> {
                ObjectNode cost = node.putObject("costPerHour");
                cost.put("perNode", price.perNode());
                cost.put("total", price.total());
                cost.put("currency", price.currency());
            }, () -> node.putNull("costPerHour"));
            node.put("result", outcome.result().json);
            outcome.error().ifPresent(error -> node.put("error", error));
        }
        Json.print(env().out(), root);
    }

    private String summary(List<Outcome> outcomes) {
        if (dryRun) {
            return outcomes.size() + " idle, nothing released (--dry-run); run gantry gc without it to release them";
        }
        List<String> parts = new ArrayList<>();
        for (Result result : List.of(Result.RELEASED, Result.KEPT, Result.FAILED)) {
            long count = outcomes.stream().filter(o -> o.result() == result).count();
            if (count > 0) {
                parts.add(count + " " + result.json);
            }
        }
        return outcomes.size() + " idle: " + String.join(", ", parts);
    }

    private static String price(HourlyPrice price) {
        return String.format(Locale.ROOT, "%.4f %s", price.total(), price.currency());
    }
}
