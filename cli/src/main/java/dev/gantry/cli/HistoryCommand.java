package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.model.JobEvent;
import dev.gantry.model.RunEvent;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "history", description = "What happened to a workflow run or a job, oldest first: each submit's "
        + "intent and outcome, each state seen, each eviction, retry and cancel; from the state database, without "
        + "asking the backend.")
final class HistoryCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN|JOB", description = "Run or job id.")
    String job;

    @Override
    public Integer call() {
        if (root.gantry().runs().exists(job)) {
            return runHistory();
        }
        List<JobEvent> events = root.gantry().history(job);
        if (output.json()) {
            ArrayNode array = Json.array();
            for (JobEvent event : events) {
                ObjectNode node = Json.object();
                node.put("sequence", event.sequence());
                node.put("at", event.at().toString());
                node.put("kind", event.kind());
                node.put("detail", event.detail());
                array.add(node);
            }
            Json.print(env().out(), array);
            return Main.OK;
        }
        Table table = new Table("#", "AT", "EVENT", "DETAIL");
        for (JobEvent event : events) {
            table.row(Long.toString(event.sequence()), event.at().toString(), event.kind(), event.detail());
        }
        table.print(env().out());
        return Main.OK;
    }

    private int runHistory() {
        List<RunEvent> events = root.gantry().runs().history(job);
        if (output.json()) {
            ArrayNode array = Json.array();
            events.forEach(event -> array.add(RunView.json(event)));
            Json.print(env().out(), array);
            return Main.OK;
        }
        Table table = new Table("#", "AT", "STEP", "EVENT", "DETAIL");
        for (RunEvent event : events) {
            table.row(Long.toString(event.sequence()), event.at().toString(), event.step().orElse("-"),
                    event.kind(), event.detail());
        }
        table.print(env().out());
        return Main.OK;
    }
}
