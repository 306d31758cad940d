package dev.gantry.cli;

import dev.gantry.azure.arm.ArmConnector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Runs the real command tree in-process with a private home and state directory, capturing both streams. Public for
 * the tests of other packages ({@code dev.gantry.cli.swap}).
 */
public final class CliRun {
    public final int exitCode;
    public final String out;
    public final String err;

    private CliRun(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    /** What a command run elsewhere (in a JVM of its own) ended with. */
    public static CliRun ended(int exitCode, String out, String err) {
        return new CliRun(exitCode, out, err);
    }

    public static CliRun run(Path home, Path workingDirectory, String... args) {
        return run(home, workingDirectory, null, args);
    }

    /** With {@code gantry vm} reaching Azure Resource Manager through this connector (a fake's); null for Azure. */
    static CliRun run(Path home, Path workingDirectory, ArmConnector azure, String... args) {
        return run(home, workingDirectory, azure, false, args);
    }

    /** The same with these environment variables set (AZURE_SUBSCRIPTION_ID, ...) over the process's. */
    static CliRun run(Path home, Path workingDirectory, ArmConnector azure, Map<String, String> environment,
            String... args) {
        return run(home, workingDirectory, azure, false, environment, new StringWriter(), new StringWriter(), args);
    }

    /** As on a terminal: standard error may be redrawn in place. Azure is not reachable. */
    static CliRun onTerminal(Path home, Path workingDirectory, String... args) {
        return run(home, workingDirectory, subscription -> {
            throw new AssertionError("no Azure here");
        }, true, args);
    }

    /**
     * Starts the command in a thread of its own; {@code out} and {@code err} fill as it runs, for a test that acts on
     * what it printed so far (a run's id, a line of its job's output). Azure is not reachable.
     */
    public static CompletableFuture<CliRun> inBackground(Path home, Path workingDirectory, StringWriter out,
            StringWriter err, String... args) {
        return CompletableFuture.supplyAsync(() -> run(home, workingDirectory, null, false, Map.of(), out, err, args),
                command -> new Thread(command, "cli-run").start());
    }

    private static CliRun run(Path home, Path workingDirectory, ArmConnector azure, boolean terminal,
            String... args) {
        return run(home, workingDirectory, azure, terminal, Map.of(), new StringWriter(), new StringWriter(), args);
    }

    private static CliRun run(Path home, Path workingDirectory, ArmConnector azure, boolean terminal,
            Map<String, String> environment, StringWriter out, StringWriter err, String... args) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("AZURE_SUBSCRIPTION_ID"); // a subscription to ask only where the test gives one
        env.putAll(environment);
        env.put("HOME", home.toString());
        env.put("GANTRY_STATE_DIR", home.resolve("state").toString());
        env.keySet().removeIf(k -> k.startsWith("GANTRY_") && !k.equals("GANTRY_STATE_DIR"));
        env.remove("XDG_DATA_HOME"); // plugins come from the private home's ~/.local/share/gantry/plugins alone
        CliEnvironment cli = azure == null
                ? new CliEnvironment(new PrintWriter(out, true), new PrintWriter(err, true), env, workingDirectory, home)
                : new CliEnvironment(new PrintWriter(out, true), new PrintWriter(err, true), env, workingDirectory, home,
                        () -> azure, terminal);
        int code = Main.run(cli, args);
        return new CliRun(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
