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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How the swap test runs a {@code gantry} command: in this process ({@link #inProcess}), or in a JVM of its own
 * ({@link #separate}) for a backend whose client reads the process's environment and trust store, which an
 * in-process CLI cannot be handed (the Azure SDK's managed identity credential, for Batch with Entra ID).
 */
@FunctionalInterface
interface CliLauncher {
    /** Starts the command with a private home; {@code out} and {@code err} fill as it runs. */
    CompletableFuture<CliRun> start(Path home, StringWriter out, StringWriter err, String... args);

    /** How long a command of the swap test may take: the longest, a Spot run, ends within about 20 s. */
    Duration LIMIT = Duration.ofMinutes(4);

    /** Runs the command to its end; fails with what it printed so far if it takes longer than {@link #LIMIT}. */
    default CliRun run(Path home, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        return finish(start(home, out, err, args), out, err, args);
    }

    /**
     * What the started command ended with; fails, naming the command, with what it printed so far and what the
     * test cluster's schedulers say, if it does not end within {@link #LIMIT} (a job that waits for ever).
     */
    static CliRun finish(CompletableFuture<CliRun> running, StringWriter out, StringWriter err, String... args) {
        try {
            return running.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            running.cancel(true);
            throw new AssertionError("gantry " + String.join(" ", args) + " did not end within " + LIMIT
                    + "\n--- stdout so far\n" + out + "\n--- stderr so far\n" + err + "\n" + ClusterSnapshot.now());
        } catch (ExecutionException e) {
            throw new AssertionError("gantry " + String.join(" ", args) + " failed in the test", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while gantry " + String.join(" ", args) + " ran", e);
        }
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
                CompletableFuture<CliRun> ended = CompletableFuture.supplyAsync(() -> {
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
                // A command the test gave up on (finish's time limit) does not outlive it.
                ended.whenComplete((run, failure) -> {
                    if (failure instanceof CancellationException) {
                        process.destroyForcibly();
                    }
                });
                return ended;
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
