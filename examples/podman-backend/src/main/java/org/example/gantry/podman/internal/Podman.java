package org.example.gantry.podman.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs podman: the plugin's only I/O with the container runtime. Each call is one process with an argv (no shell);
 * values a job's environment carries are given in the process's environment, never as arguments.
 */
public final class Podman {
    private static final long CALL_TIMEOUT_SECONDS = 120;
    private final BackendConfig config;
    private final AtomicLong calls = new AtomicLong();

    /** @param config the backend's settings, whose keys the errors name */
    public Podman(BackendConfig config) {
        this.config = config;
    }

    /** What a podman call printed and how it ended. */
    public record Result(int code, String stdout, String stderr) {
        boolean ok() {
            return code == 0;
        }

        /** Podman's error line ("Error: ..."), or its whole standard error. */
        String error() {
            String text = stderr.strip();
            return text.isEmpty() ? "exit code " + code : text;
        }
    }

    /** Runs {@code argv} with {@code environment} added to the plugin's own environment. */
    public Result call(List<String> argv, Map<String, String> environment) {
        calls.incrementAndGet();
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot run '" + argv.get(0) + "' ("
                    + config.describe(PodmanSettings.PROGRAM) + "): " + e.getMessage() + "; install podman (Debian"
                    + " and Ubuntu: apt-get install podman) or set " + config.qualifiedKey(PodmanSettings.PROGRAM)
                    + " to the path of the podman program", e);
        }
        try {
            process.getOutputStream().close();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            String stdout = read(process.getInputStream());
            if (!process.waitFor(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "podman did not answer within "
                        + CALL_TIMEOUT_SECONDS + "s: " + String.join(" ", argv.subList(0, Math.min(argv.size(), 3)))
                        + " ...; check 'podman info' on this machine");
            }
            return new Result(process.exitValue(), stdout, stderr.join());
        } catch (IOException e) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "podman's output could not be read: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "interrupted while podman ran", e);
        }
    }

    /** Runs {@code argv}; a non-zero exit is BACKEND_UNAVAILABLE with podman's error and {@code what} it was for. */
    public Result require(List<String> argv, String what) {
        Result result = call(argv, Map.of());
        if (!result.ok()) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "podman could not " + what + ": "
                    + result.error() + "; check that podman works here ('podman info') with the options in "
                    + config.qualifiedKey(PodmanSettings.PODMAN_OPTIONS));
        }
        return result;
    }

    /** The podman calls made so far. */
    public long calls() {
        return calls.get();
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
