package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunStatus;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "status", description = "Show a workflow run's steps, one job, or all known jobs (refreshed with one "
        + "status call per backend).")
final class StatusCommand extends Verb {
    @Parameters(index = "0", arity = "0..1", paramLabel = "RUN|JOB", description = "Run or job id (default: all "
            + "jobs).")
    String job;

    @Override
    public Integer call() {
        if (job != null && root.gantry().runs().exists(job)) {
            RunStatus status = root.gantry().runs().statusWithBudget(job);
            if (output.json()) {
                Json.print(env().out(), RunView.json(status));
            } else {
                RunView.print(env().out(), status);
                root.gantry().runs().driver(job).ifPresent(lease -> env().out().println("driven by process "
                        + lease.holder()));
            }
            return Main.OK;
        }
        if (job != null) {
            JobRecord record = root.gantry().job(job);
            if (output.json()) {
                Json.print(env().out(), JobView.json(record));
            } else {
                Table table = JobView.table();
                JobView.addRow(table, record);
                table.print(env().out());
                if (!record.message().isBlank()) {
                    env().out().println("message: " + record.message());
                }
            }
            return Main.OK;
        }
        List<JobRecord> records = root.gantry().jobs();
        if (output.json()) {
            ArrayNode array = Json.array();
            records.forEach(r -> array.add(JobView.json(r)));
            Json.print(env().out(), array);
        } else if (records.isEmpty()) {
            env().out().println("No jobs yet. Start one with: gantry run SPEC");
        } else {
            Table table = JobView.table();
            records.forEach(r -> JobView.addRow(table, r));
            table.print(env().out());
        }
        return Main.OK;
    }
}
