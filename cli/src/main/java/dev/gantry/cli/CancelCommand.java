package dev.gantry.cli;

import dev.gantry.core.jobs.JobRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "cancel", description = "Stop a job on every node; it then reports CANCELLED.")
final class CancelCommand extends Verb {
    @Parameters(index = "0", paramLabel = "JOB", description = "Job id.")
    String job;

    @Override
    public Integer call() {
        JobRecord record = root.gantry().cancel(job);
        if (output.json()) {
            Json.print(env().out(), JobView.json(record));
        } else {
            env().out().println("gantry: " + JobView.summary(record));
        }
        return Main.OK;
    }
}
