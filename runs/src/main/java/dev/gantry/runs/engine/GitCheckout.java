package dev.gantry.runs.engine;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The git commit a directory is checked out at, asked of the {@code git} command (the one the user's checkout
 * works with, whatever its version or extensions). No git, no repository or no commit yet is no provenance, not an
 * error: a run of a spec outside a checkout is as valid as one inside.
 */
final class GitCheckout {
    /** Enough for {@code git status} on a large checkout; a hung git must not hold a run back for long. */
    private static final long TIMEOUT_SECONDS = 20;
    /** git never reads its standard input for these commands; an empty one keeps it from waiting on ours. */
    private static final File NULL_INPUT = new File(System.getProperty("os.name").startsWith("Windows") ? "NUL"
            : "/dev/null");

    record State(String commit, boolean dirty) {
    }

    private GitCheckout() {
    }

    static Optional<State> of(Path directory) {
        Optional<String> commit = git(directory, "rev-parse", "--verify", "--quiet", "HEAD");
        if (commit.isEmpty() || commit.get().isBlank()) {
            return Optional.empty();
        }
        // Any change in the checkout, untracked files included, may be what ran: the commit alone does not say it.
        Optional<String> status = git(directory, "status", "--porcelain", "--untracked-files=normal");
        return Optional.of(new State(commit.get().strip(), status.map(s -> !s.isBlank()).orElse(true)));
    }

    /** The command's output, or empty when it cannot run, fails or takes too long. */
    private static Optional<String> git(Path directory, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git", "-C", directory.toString()));
        command.addAll(List.of(arguments));
        Path output = null;
        Process process = null;
        try {
            // Output goes to a file, not a pipe, so that a git that hangs cannot block the read past the timeout.
            output = Files.createTempFile("gantry-git", ".out");
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(NULL_INPUT))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(output.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                return Optional.empty();
            }
            return process.exitValue() == 0 ? Optional.of(Files.readString(output, StandardCharsets.UTF_8))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            deleteQuietly(output);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // A temporary file left behind in the system's temporary directory is harmless.
            }
        }
    }
}
