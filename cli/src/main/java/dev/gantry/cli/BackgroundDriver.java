package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code gantry attach RUN} as a process of its own, for {@code gantry run --detach} of a workflow: core
 * sequences steps on backends without native dependencies, so some process has to drive the run after this one
 * returns. It runs the same Java, JVM options and class path as this process, with the same configuration and
 * environment, and writes what it prints to {@code STATE_DIR/runs/RUN.log}. If it dies, any {@code gantry attach RUN} or {@code gantry run} of the same
 * workflow takes the run over.
 */
final class BackgroundDriver {
    private BackgroundDriver() {
    }

    static Path start(GantryCommand root, String runId, Path stateDirectory, QuotaOption quota) {
        String java = ProcessHandle.current().info().command().orElseThrow(() -> new GantryException(
                ErrorCode.INTERNAL, "cannot tell which Java runs this gantry, so cannot start a background driver "
                + "for run " + runId + "; drive it with 'gantry attach " + runId + "'"));
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(inheritedJvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        command.addAll(List.of("-Duser.home=" + root.env().home(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        if (root.config != null) {
            command.add("--config=" + root.env().workingDirectory().resolve(root.config));
        }
        if (root.backend != null) {
            command.add("--backend=" + root.backend);
        }
        command.addAll(List.of("attach", runId));
        if (quota.noQuota) {
            // Its re-plans of moved attempts keep to what this command's plans kept to.
            command.add("--no-quota");
        }
        Path log = stateDirectory.resolve("runs").resolve(runId + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).directory(root.env().workingDirectory().toFile())
                    .redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile()));
            builder.environment().clear();
            builder.environment().putAll(root.env().environment());
            builder.start().getOutputStream().close(); // it reads nothing
            return log;
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot start a background driver for run " + runId + ": "
                    + e.getMessage() + "; drive it with 'gantry attach " + runId + "'", e);
        }
    }

    /**
     * The JVM options this process was started with, for the driver: those of {@code GANTRY_JAVA_OPTS} (the trust
     * store of a private CA, a proxy, memory) and the launcher's, without which the driver would not reach what this
     * process reaches (a detached run on a cloud with a private CA stayed WAITING). Not a debugger's agent, whose
     * port this process holds, and not {@code user.home}, which the driver is given explicitly.
     */
    static List<String> inheritedJvmOptions(List<String> inputArguments) {
        return inputArguments.stream()
                .filter(option -> !option.startsWith("-agentlib:jdwp") && !option.startsWith("-Xrunjdwp")
                        && !option.startsWith("-Xdebug") && !option.startsWith("-Duser.home="))
                .toList();
    }
}
