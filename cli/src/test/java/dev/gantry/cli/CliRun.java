package dev.gantry.cli;

import dev.gantry.azure.arm.ArmConnector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Runs the real command tree in-process with a private home and state directory, capturing both streams. */
final class CliRun {
    final int exitCode;
    final String out;
    final String err;

    private CliRun(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    static CliRun run(Path home, Path workingDirectory, String... args) {
        return run(home, workingDirectory, null, args);
    }

    /** With {@code gantry vm} reaching Azure Resource Manager through this connector (a fake's); null for Azure. */
    static CliRun run(Path home, Path workingDirectory, ArmConnector azure, String... args) {
        return run(home, workingDirectory, azure, false, args);
    }

    /** As on a terminal: standard error may be redrawn in place. Azure is not reachable. */
    static CliRun onTerminal(Path home, Path workingDirectory, String... args) {
        return run(home, workingDirectory, subscription -> {
            throw new AssertionError("no Azure here");
        }, true, args);
    }

    private static CliRun run(Path home, Path workingDirectory, ArmConnector azure, boolean terminal,
            String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>(System.getenv());
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
