package dev.gantry.cli.swap;

import dev.gantry.cli.CliRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How the swap test runs a {@code gantry} command: in this process ({@link #inProcess}), or in a JVM of its own
 * ({@link #separate}) for a backend whose client reads the process's environment and trust store, which an
 * in-process CLI cannot be handed (the Azure SDK's managed identity credential, for Batch with Entra ID).
 */
@FunctionalInterface
interface CliLauncher {
    /** Starts the command with a private home; {@code out} and {@code err} fill as it runs. */
    CompletableFuture<CliRun> start(Path home, StringWriter out, StringWriter err, String... args);

    /** Runs the command to its end. */
    default CliRun run(Path home, String... args) {
        return start(home, new StringWriter(), new StringWriter(), args).join();
    }

    /** The CLI in this process, as {@link CliRun} runs it. */
    static CliLauncher inProcess(Path workingDirectory) {
        return (home, out, err, args) -> CliRun.inBackground(home, workingDirectory, out, err, args);
    }

    /**
     * The CLI's main class in a JVM of its own, on this test's class path, with {@code jvmOptions}, a private
     * {@code HOME} and state directory, and {@code environment} added to this process's (no {@code GANTRY_}
     * variable of it passed on).
     */
    static CliLauncher separate(Path workingDirectory, List<String> jvmOptions, Map<String, String> environment) {
        return (home, out, err, args) -> {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.gantry.cli.Main"));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("GANTRY_"));
            builder.environment().put("HOME", home.toString());
            builder.environment().put("GANTRY_STATE_DIR", home.resolve("state").toString());
            builder.environment().putAll(environment);
            try {
                Process process = builder.start();
                process.getOutputStream().close();
                CompletableFuture<Void> copies = CompletableFuture.allOf(copy(process.getInputStream(), out),
                        copy(process.getErrorStream(), err));
                return CompletableFuture.supplyAsync(() -> {
                    try {
                        int code = process.waitFor();
                        copies.join();
                        return CliRun.ended(code, out.toString(), err.toString());
                    } catch (InterruptedException e) {
                        process.destroyForcibly();
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while gantry " + String.join(" ", args)
                                + " ran", e);
                    }
                }, task -> new Thread(task, "separate-cli").start());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static CompletableFuture<Void> copy(InputStream stream, StringWriter into) {
        return CompletableFuture.runAsync(() -> {
            try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
                char[] buffer = new char[8192];
                for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                    into.write(buffer, 0, n);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, task -> new Thread(task, "separate-cli-output").start());
    }
}
