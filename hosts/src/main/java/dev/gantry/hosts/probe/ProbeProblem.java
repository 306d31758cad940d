package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * Something in a probe's output that could not be understood: the section (the probe's name, e.g.
 * {@code nvidia-smi}) and what was wrong, quoting the offending text. Parsers report these instead of throwing, so
 * one odd line never hides the rest of a host's facts.
 */
public record ProbeProblem(String section, String message) {
    public ProbeProblem {
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return section + ": " + message;
    }
}
