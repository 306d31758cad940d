package dev.gantry.cli;

import picocli.CommandLine.Command;

@Command(name = "workflow", description = "Run workflows of dependent workloads with retries (coming with durable runs).")
final class WorkflowCommand extends NotYetCommand {
    @Override
    String what() {
        return "workflow";
    }
}
