package dev.gantry.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "doctor", description = "Probe hosts for drivers, GPUs, container runtime and InfiniBand (coming with the SSH hosts of the manual backend).")
final class DoctorCommand extends NotYetCommand {
    @Option(names = "--host", paramLabel = "HOST", description = "Only this host.")
    String host;

    @Override
    String what() {
        return "doctor";
    }
}
