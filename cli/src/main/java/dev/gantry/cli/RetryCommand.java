package dev.gantry.cli;

import dev.gantry.Gantry;
import dev.gantry.model.RunRecord;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "retry", description = {"Run again what did not succeed in a workflow run: the STEP given (and "
        + "what was skipped because of it), or every failed, cancelled or skipped step, each with its retries afresh; then "
        + "drive the run to its end as 'gantry attach' does.",
        "The run's spec must be the one it started from."})
final class RetryCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN", description = "Run id ('gantry list --all' shows them).")
    String run;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STEP",
            description = "The step (all its matrix jobs) or one matrix job to run again (default: all that did not "
                    + "succeed).")
    String step;

    @Option(names = {"-d", "--detach"}, description = "Return once the steps are set to run again; a background "
            + "gantry drives the run.")
    boolean detach;

    @Mixin
    DriveOptions drive;

    @Mixin
    QuotaOption quota;

    @Override
    public Integer call() throws Exception {
        Gantry gantry = root.gantry();
        // The run engine re-plans moved attempts as 'gantry plan' would: within the subscription when there is one.
        quota.planWithinSubscription(gantry, env());
        RunRecord retried = gantry.runs().retry(run, Optional.ofNullable(step));
        env().err().println("gantry: run " + run + ": " + retried.message().orElse("retrying"));
        env().err().flush();
        if (detach) {
            BackgroundDriver.start(root, run, gantry.stateDirectory(), quota);
            env().out().println(run);
            return Main.OK;
        }
        return Attach.drive(this, gantry.runs(), run, drive.timeout, drive.logs);
    }
}
