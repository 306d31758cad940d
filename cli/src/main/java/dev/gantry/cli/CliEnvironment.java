package dev.gantry.cli;

import dev.gantry.azure.arm.ArmConnector;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from and writes to, injectable so tests run the real command tree in-process.
 *
 * @param out standard output: results (tables, JSON) and the job's own output
 * @param err standard error: progress, warnings and errors
 * @param environment the process environment
 * @param workingDirectory where relative paths resolve
 * @param home the user's home (configuration and catalog cache)
 * @param azure how {@code gantry vm} reaches Azure Resource Manager (tests point it at a fake)
 * @param terminal whether standard error is a terminal a live view may redraw in place
 */
public record CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                             Path home, ArmConnector azure, boolean terminal) {
    /** Not a terminal: progress as plain lines. */
    public CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                          Path home, ArmConnector azure) {
        this(out, err, environment, workingDirectory, home, azure, false);
    }

    /** Azure signed in through the DefaultAzureCredential chain, built only when a command reaches Azure. */
    public CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                          Path home) {
        this(out, err, environment, workingDirectory, home,
                subscription -> ArmConnector.defaultAzureCredential().connect(subscription));
    }

    public static CliEnvironment system() {
        return new CliEnvironment(new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(),
                Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")),
                subscription -> ArmConnector.defaultAzureCredential().connect(subscription),
                // A console means standard input and output are a terminal; a dumb one cannot move the cursor.
                System.console() != null && !"dumb".equals(System.getenv("TERM")));
    }
}
