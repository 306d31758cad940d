package dev.gantry.cli;

import dev.gantry.api.UserHome;
import dev.gantry.azure.arm.ArmConnector;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the CLI reads from and writes to, injectable so tests run the real command tree in-process.
 *
 * @param out standard output: results (tables, JSON) and the job's own output
 * @param err standard error: progress, warnings and errors
 * @param environment the process environment
 * @param workingDirectory where relative paths resolve
 * @param home the user's home (configuration and catalog cache)
 * @param azureConnector how {@code gantry vm} reaches Azure Resource Manager (tests point it at a fake), asked for
 *                       only by a command that reaches Azure
 * @param terminal whether standard error is a terminal a live view may redraw in place
 */
public record CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                             Path home, Supplier<ArmConnector> azureConnector, boolean terminal) {
    /** Not a terminal: progress as plain lines. */
    public CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                          Path home, ArmConnector azure) {
        this(out, err, environment, workingDirectory, home, () -> azure, false);
    }

    /** Azure signed in through the DefaultAzureCredential chain, built only when a command reaches Azure. */
    public CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                          Path home) {
        this(out, err, environment, workingDirectory, home, new DefaultAzure(), false);
    }

    /** How {@code gantry vm} reaches Azure Resource Manager. */
    public ArmConnector azure() {
        return azureConnector.get();
    }

    public static CliEnvironment system() {
        Map<String, String> environment = System.getenv();
        return new CliEnvironment(new PrintWriter(System.out, true), new PrintWriter(System.err, true), environment,
                Path.of("").toAbsolutePath(), UserHome.of(environment), new DefaultAzure(),
                // A console means standard input and output are a terminal; a dumb one cannot move the cursor.
                System.console() != null && !"dumb".equals(environment.get("TERM")));
    }

    /**
     * Azure through the DefaultAzureCredential chain, handed out on first use. A class of its own, not a lambda, and
     * a supplier, not an {@link ArmConnector}: making the connector, or a lambda typed with it, links its interface,
     * whose verification loads the Azure SDK's first classes and so checks the signatures of its signed jars, about
     * 0.1 s of every command's start, Azure or not.
     */
    private static final class DefaultAzure implements Supplier<ArmConnector> {
        /** One per command, so that what it reads (a subscription's quotas for several plans) is shared. */
        private ArmConnector connector;

        @Override
        public synchronized ArmConnector get() {
            if (connector == null) {
                connector = ArmConnector.defaultAzureCredential();
            }
            return connector;
        }
    }
}
