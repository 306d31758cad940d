package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * One section of the probe script's output.
 *
 * @param name the probe's name, one of {@link ProbeScript#SECTIONS}
 * @param exitStatus the command's exit status ({@link ProbeScript#NOT_INSTALLED} when it is not installed)
 * @param body what the command printed, stdout and stderr together
 */
public record ProbeSection(String name, int exitStatus, String body) {
    public ProbeSection {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
    }

    public boolean succeeded() {
        return exitStatus == 0;
    }

    public boolean notInstalled() {
        return exitStatus == ProbeScript.NOT_INSTALLED;
    }

    public boolean timedOut() {
        return exitStatus == 124;
    }

    /** The first non-blank line of the output, for messages; empty when there is none. */
    public String firstLine() {
        for (String line : body.split("\n", -1)) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return "";
    }

    /** A short account of a failed run: {@code exit 9: NVIDIA-SMI has failed ...}. */
    public String failure() {
        if (notInstalled()) {
            return "not installed";
        }
        if (timedOut()) {
            return "timed out after " + ProbeScript.TIMEOUT_SECONDS + "s";
        }
        String first = firstLine();
        return "exit " + exitStatus + (first.isEmpty() ? "" : ": " + first);
    }
}
