package dev.gantry.cli;

import dev.gantry.Gantry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "attach", description = {"Follow a workflow run until it ends, driving it when no live process does "
        + "(after 'gantry run --detach', or when the process that drove it was killed).",
        "Ends with the steps table; exit 0 when the run succeeded, 1 otherwise."})
final class AttachCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN", description = "Run id ('gantry list' shows them).")
    String run;

    @Mixin
    DriveOptions drive;

    @Mixin
    QuotaOption quota;

    @Override
    public Integer call() throws Exception {
        Gantry gantry = root.gantry();
        // Driving the run, the run engine re-plans moved attempts within the subscription when there is one.
        quota.planWithinSubscription(gantry, env());
        return Attach.drive(this, gantry.runs(), run, drive.timeout, drive.logs);
    }
}
