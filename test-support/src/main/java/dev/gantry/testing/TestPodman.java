package dev.gantry.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Podman as the container tests of every backend use it: the busybox test image from scripts/setup-podman.sh in a
 * storage root of its own, and the options a restricted host needs (runc with cgroupfs, events in a file, ulimits
 * the host allows). Podman missing is an error with the command that installs it, never a skip.
 */
public final class TestPodman {
    /** The test image scripts/setup-podman.sh imports: a static busybox and nothing else. */
    public static final String IMAGE = "localhost/gantry-test-busybox:latest";
    /** A file only the test image has (no host does): a job that sees it ran in the image. */
    public static final String FILE_ONLY_IN_IMAGE = "/etc/gantry-test-image";
    private static final long CALL_TIMEOUT_SECONDS = 120;
    private static boolean prepared;

    private TestPodman() {
    }

    /** The storage root the setup script imported the image into ({@code GANTRY_PODMAN_ROOT}, else the default). */
    public static Path root() {
        String given = System.getenv("GANTRY_PODMAN_ROOT");
        return Path.of(given == null || given.isBlank() ? "/var/tmp/gantry-podman" : given);
    }

    /** Options before podman's subcommand: the storage root, runc with cgroupfs, events in a file. */
    public static List<String> globalOptions() {
        return List.of("--root", root().resolve("storage").toString(), "--runroot", root().resolve("run").toString(),
                "--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs",
                "--events-backend", "file");
    }

    /**
     * The {@code --ulimit} values containers get here: Podman's default memlock=-1 cannot be granted without
     * CAP_SYS_RESOURCE, and once one {@code --ulimit} is given Podman stops applying its own defaults (1048576 open
     * files, more than this host allows).
     */
    public static List<String> ulimits() {
        return List.of("nofile=1024:1024", "nproc=4096:4096");
    }

    /**
     * Checks podman is installed and runs the (idempotent) setup script that imports the test image.
     *
     * @throws IllegalStateException naming what is missing and the command that fixes it
     */
    public static synchronized void prepare() {
        if (prepared) {
            return;
        }
        if (!onPath("podman") || !onPath("runc")) {
            throw new IllegalStateException("podman and runc are needed for the container tests but are not"
                    + " installed; run scripts/test-all.sh (as root it installs them) or scripts/setup-podman.sh as"
                    + " root");
        }
        Path script = repositoryRoot().resolve("scripts/setup-podman.sh");
        Result setup = exec(List.of("sh", script.toString()), Map.of("GANTRY_PODMAN_ROOT", root().toString()));
        if (setup.code() != 0) {
            throw new IllegalStateException(script + " failed with exit code " + setup.code() + ": "
                    + setup.output());
        }
        prepared = true;
    }

    /** {@code podman GLOBAL-OPTIONS ARGS...}: its exit code and its output (stdout and stderr together). */
    public static Result podman(String... args) {
        return exec(command(args), Map.of());
    }

    /** The argv of {@code podman GLOBAL-OPTIONS ARGS...}, for a caller that runs it itself. */
    public static List<String> command(String... args) {
        List<String> argv = new ArrayList<>(List.of("podman"));
        argv.addAll(globalOptions());
        argv.addAll(List.of(args));
        return argv;
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
        throw new IllegalStateException("scripts/setup-podman.sh not found above " + Path.of("").toAbsolutePath()
                + "; run the tests from the repository");
    }

    private static Result exec(List<String> argv, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(argv + " did not finish within " + CALL_TIMEOUT_SECONDS + "s");
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + argv.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + argv, e);
        }
    }
}
