package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.model.JobRecord;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunStatus;
import dev.gantry.model.StepRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** How runs print: a run's steps as a table or JSON, a list of runs, an event as one line. */
final class RunView {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private RunView() {
    }

    /** The run's header line, then one row per step. */
    static void print(PrintWriter out, RunStatus status) {
        out.println(headline(status));
        table(status).print(out);
    }

    /**
     * "run ID (workflow NAME): STATE, 3 of 4 jobs done, $0.0123 so far, on backend B"; with a budget, "$0.0123 so far
     * of a $1.0000 budget (1%)".
     */
    static String headline(RunStatus status) {
        RunRecord run = status.run();
        return "run " + run.id() + " (workflow " + run.name() + "): " + run.state() + ", " + status.finishedSteps()
                + " of " + status.steps().size() + " jobs done, " + money(status.cost()) + " so far"
                + (status.maxTotal().isPresent() ? " of a " + money(status.maxTotal().getAsDouble()) + " budget ("
                + Math.round(100 * status.cost() / status.maxTotal().getAsDouble()) + "%)" : "") + ", on backend "
                + run.backend() + run.message().map(m -> " (" + m + ")").orElse("");
    }

    static Table table(RunStatus status) {
        Table table = new Table("STEP", "STATE", "ATTEMPTS", "EVICTIONS", "ELAPSED", "COST", "DETAIL");
        for (StepRecord step : status.steps()) {
            table.row(step.name(), step.state(), step.attempts(), step.evictions(),
                    step.attempts() == 0 ? "-" : JobView.duration(status.elapsed(step.name())),
                    step.attempts() == 0 ? "-" : money(status.cost(step.name())), step.reason().orElse(""));
        }
        return table;
    }

    static ObjectNode json(RunStatus status) {
        RunRecord run = status.run();
        ObjectNode node = summaryJson(run);
        node.put("cost", round(status.cost()));
        status.maxTotal().ifPresent(max -> node.putObject("budget").put("maxTotal", round(max)));
        node.put("specFile", run.specFile());
        node.put("specHash", run.specHash());
        run.gitCommit().ifPresent(c -> node.put("gitCommit", c));
        run.gitDirty().ifPresent(d -> node.put("gitDirty", d));
        ObjectNode catalog = node.putObject("catalog");
        catalog.put("source", run.catalogSource());
        catalog.put("date", run.catalogDate().toString());
        node.put("gantryVersion", run.gantryVersion());
        ArrayNode steps = node.putArray("steps");
        for (StepRecord step : status.steps()) {
            ObjectNode s = steps.addObject();
            s.put("name", step.name());
            s.put("state", step.state().name());
            s.put("attempts", step.attempts());
            s.put("evictions", step.evictions());
            step.nextAttemptAt().ifPresent(at -> s.put("nextAttemptAt", at.toString()));
            step.reason().ifPresent(r -> s.put("reason", r));
            s.put("elapsedSeconds", status.elapsed(step.name()).toMillis() / 1000.0);
            s.put("cost", round(status.cost(step.name())));
            ArrayNode attempts = s.putArray("attemptList");
            for (AttemptRecord attempt : status.attemptsOf(step.name())) {
                ObjectNode a = attempts.addObject();
                a.put("number", attempt.number());
                a.put("jobId", attempt.jobId());
                a.put("spot", attempt.spot());
                attempt.region().ifPresent(r -> a.put("region", r));
                attempt.pricePerHour().ifPresent(p -> a.put("pricePerHour", p));
                a.put("evictions", attempt.evictions());
                attempt.outcome().ifPresent(o -> a.put("outcome", o.name()));
                JobRecord job = status.jobs().get(attempt.jobId());
                if (job != null) {
                    a.put("jobState", job.state().name());
                    job.ref().ifPresent(ref -> a.put("backendJobId", ref.id()));
                }
            }
        }
        return node;
    }

    /** The fields a list of runs shows. */
    static ObjectNode summaryJson(RunRecord run) {
        ObjectNode node = Json.object();
        node.put("id", run.id());
        node.put("name", run.name());
        node.put("state", run.state().name());
        run.message().ifPresent(m -> node.put("message", m));
        node.put("backend", run.backend());
        node.put("createdAt", run.createdAt().toString());
        node.put("updatedAt", run.updatedAt().toString());
        run.endedAt().ifPresent(at -> node.put("endedAt", at.toString()));
        return node;
    }

    static void list(PrintWriter out, List<RunRecord> runs, Instant now) {
        Table table = new Table("RUN", "WORKFLOW", "STATE", "BACKEND", "STARTED", "TOOK", "MESSAGE");
        for (RunRecord run : runs) {
            table.row(run.id(), run.name(), run.state(), run.backend(),
                    run.createdAt().truncatedTo(ChronoUnit.SECONDS).toString(),
                    JobView.duration(Duration.between(run.createdAt(), run.endedAt().orElse(now))),
                    run.message().orElse(""));
        }
        table.print(out);
    }

    /** One event as a line of progress: "10:00:00 train submitted attempt 1 as job ...". */
    static String line(RunEvent event) {
        return CLOCK.format(event.at()) + "  " + event.step().orElse("run") + "  " + event.kind() + "  "
                + event.detail();
    }

    /** An event as JSON: the same object as a line of the run's {@code .events.jsonl} file. */
    static ObjectNode json(RunEvent event) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(event.jsonLine());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String money(double dollars) {
        return String.format(Locale.ROOT, "$%.4f", dollars);
    }

    private static double round(double dollars) {
        return Math.round(dollars * 1_000_000) / 1_000_000.0;
    }
}
