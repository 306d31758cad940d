package dev.gantry.cli;

import dev.gantry.model.JobRecord;
import dev.gantry.model.RunRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "cancel", description = "Stop a workflow run (its active jobs cancelled, the rest skipped) or a job "
        + "on every node; it then reports CANCELLED.")
final class CancelCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN|JOB", description = "Run or job id.")
    String job;

    @Override
    public Integer call() {
        if (root.gantry().runs().exists(job)) {
            RunRecord run = root.gantry().runs().cancel(job);
            if (!run.state().finished()) {
                env().err().println("gantry: asked the process driving run " + job + " ("
                        + root.gantry().runs().driver(job).map(l -> l.holder()).orElse("another process")
                        + ") to cancel it; it does at its next poll");
            }
            Attach.report(this, root.gantry().runs(), run);
            return Main.OK; // the cancel was done or asked; the run's state is in what was printed
        }
        JobRecord record = root.gantry().cancel(job);
        if (output.json()) {
            Json.print(env().out(), JobView.json(record));
        } else {
            env().out().println("gantry: " + JobView.summary(record));
        }
        return Main.OK;
    }
}
