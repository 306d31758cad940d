package dev.gantry.cli;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "attach", description = {"Follow a workflow run until it ends, driving it when no live process does "
        + "(after 'gantry run --detach', or when the process that drove it was killed).",
        "Ends with the steps table; exit 0 when the run succeeded, 1 otherwise."})
final class AttachCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN", description = "Run id ('gantry list' shows them).")
    String run;

    @Option(names = "--logs", description = "A workflow: also show each step's output, each line after the step's "
            + "name.")
    boolean logs;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "PT87600H", hidden = true,
            description = "Stop waiting (not the run) after this long.")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
        return Attach.drive(this, root.gantry().runs(), run, timeout, logs);
    }
}
