package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gantry.model.RunRecord;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", description = "List workflow runs, newest first: the unfinished ones, or with --all every "
        + "run; from the state database, without asking any backend.")
final class ListCommand extends Verb {
    @Option(names = {"-a", "--all"}, description = "Also list runs that ended.")
    boolean all;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "List at most N runs (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new picocli.CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("list"),
                    "--limit must be 1 or more, got " + limit);
        }
        List<RunRecord> runs = root.gantry().runs().list(limit, all);
        if (output.json()) {
            ArrayNode array = Json.array();
            runs.forEach(run -> array.add(RunView.summaryJson(run)));
            Json.print(env().out(), array);
        } else if (runs.isEmpty()) {
            env().out().println(all ? "No runs yet. Start one with: gantry run WORKFLOW"
                    : "No unfinished runs; 'gantry list --all' shows those that ended.");
        } else {
            RunView.list(env().out(), runs, Instant.now());
        }
        env().out().flush();
        return Main.OK;
    }
}
