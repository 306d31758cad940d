package dev.gantry.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** How a command that drives a workflow run to its end shows it and how long it waits: run, attach and retry. */
final class DriveOptions {
    @Option(names = "--logs", description = "A workflow: also show each step's output, each line after the step's "
            + "name.")
    boolean logs;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "PT87600H", hidden = true,
            description = "Stop waiting (not the job or run) after this long.")
    Duration timeout;
}
