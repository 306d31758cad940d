package dev.gantry.backend.manual;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Podman as the container tests use it: the test image from scripts/setup-podman.sh in its own storage root, and
 * the manual backend's settings for a restricted host (no network namespace, runc with cgroupfs, events in a file,
 * ulimits the host allows). Podman missing is a failure with the command that installs it, never a skip.
 */
public final class PodmanSandbox {
    public static final String IMAGE = "localhost/gantry-test-busybox:latest";
    private static boolean prepared;

    private PodmanSandbox() {
    }

    /** The storage root the setup script imported the image into. */
    public static Path root() {
        String given = System.getenv("GANTRY_PODMAN_ROOT");
        return Path.of(given == null || given.isBlank() ? "/var/tmp/gantry-podman" : given);
    }

    public static List<String> globalOptions() {
        return List.of("--root", root().resolve("storage").toString(), "--runroot", root().resolve("run").toString(),
                "--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs",
                "--events-backend", "file");
    }

    /** Checks podman is installed and runs the (idempotent) setup script that imports the test image. */
    public static synchronized void prepare() {
        if (prepared) {
            return;
        }
        if (!onPath("podman") || !onPath("runc")) {
            fail("podman and runc are needed for the container tests but are not installed; run scripts/test-all.sh "
                    + "(as root it installs them) or scripts/setup-podman.sh as root");
        }
        Path script = repositoryRoot().resolve("scripts/setup-podman.sh");
        Result setup = exec(List.of("sh", script.toString()), Map.of("GANTRY_PODMAN_ROOT", root().toString()));
        if (setup.code() != 0) {
            fail(script + " failed with exit code " + setup.code() + ": " + setup.output());
        }
        prepared = true;
    }

    /** The manual backend's settings for Podman here, plus the given ones. */
    public static Map<String, String> config(Map<String, String> extra) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("containerRuntime", "podman");
        List<String> options = globalOptions();
        for (int i = 0; i < options.size(); i++) {
            config.put("containerRuntimeOptions[" + i + "]", options.get(i));
        }
        // The default memlock=-1 cannot be granted without CAP_SYS_RESOURCE, and once one --ulimit is given Podman
        // stops applying its own defaults (1048576 open files, more than this host allows).
        config.put("containerUlimits[0]", "nofile=1024:1024");
        config.put("containerUlimits[1]", "nproc=4096:4096");
        config.put("containerRunOptions[0]", "--network=none");
        config.putAll(extra);
        return config;
    }

    /** Runs podman with the sandbox's global options. */
    public static Result podman(String... args) {
        List<String> argv = new ArrayList<>(List.of("podman"));
        argv.addAll(globalOptions());
        argv.addAll(List.of(args));
        return exec(argv, Map.of());
    }

    public record Result(int code, String output) {
    }

    private static boolean onPath(String program) {
        return exec(List.of("sh", "-c", "command -v \"$1\"", "sh", program), Map.of()).code() == 0;
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("scripts/setup-podman.sh"))) {
                return dir;
            }
        }
        throw new AssertionError("scripts/setup-podman.sh not found above " + Path.of("").toAbsolutePath());
    }

    private static Result exec(List<String> argv, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(argv + " did not finish within 120s");
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new AssertionError("cannot run " + argv.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + argv, e);
        }
    }
}
