package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.Gantry;
import dev.gantry.model.SpecCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "validate", description = "Check workload specs; print one FILE:LINE:COL: FIELD: message line per problem.")
final class ValidateCommand extends Verb {
    @Parameters(arity = "1..*", paramLabel = "SPEC", description = "Workload spec files (YAML).")
    List<Path> specs;

    @Override
    public Integer call() {
        // Validation needs no backend, and a broken gantry.yaml must not hide spec problems: only the limit on a
        // workflow's jobs is read from the configuration, its default taken when the configuration cannot be read.
        OptionalInt maxJobs = maxJobs();
        boolean ok = true;
        ArrayNode results = Json.array();
        for (Path spec : specs) {
            Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
            SpecCheck result = Gantry.checkSpec(file, maxJobs);
            List<Problem> problems = result.problems();
            OptionalInt jobs = result.workflowJobs();
            ok &= problems.isEmpty();
            if (output.json()) {
                ObjectNode node = results.addObject();
                node.put("file", spec.toString());
                node.put("valid", problems.isEmpty());
                jobs.ifPresent(n -> node.put("jobs", n));
                ArrayNode list = node.putArray("problems");
                for (Problem problem : problems) {
                    ObjectNode p = list.addObject();
                    problem.location().ifPresent(where -> {
                        p.put("file", where.file());
                        p.put("line", where.line());
                        p.put("column", where.column());
                    });
                    p.put("path", problem.path());
                    p.put("message", problem.message());
                }
            } else if (problems.isEmpty()) {
                env().out().println(spec + ": valid" + (jobs.isPresent() ? " (workflow of " + jobs.getAsInt()
                        + (jobs.getAsInt() == 1 ? " job)" : " jobs)") : ""));
            } else {
                problems.forEach(env().err()::println);
            }
        }
        if (output.json()) {
            Json.print(env().out(), results);
        }
        return ok ? Main.OK : Main.USAGE_ERROR;
    }

    /** {@code runs.maxJobs} as configured; empty (its default) when the configuration cannot be read. */
    private OptionalInt maxJobs() {
        try {
            return OptionalInt.of(root.gantry().maxJobs());
        } catch (GantryException e) {
            return OptionalInt.empty();
        }
    }
}
