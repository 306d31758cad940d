package dev.gantry.cli;

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
 */
public record CliEnvironment(PrintWriter out, PrintWriter err, Map<String, String> environment, Path workingDirectory,
                             Path home) {
    public static CliEnvironment system() {
        return new CliEnvironment(new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(),
                Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")));
    }
}
