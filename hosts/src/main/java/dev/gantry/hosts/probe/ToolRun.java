package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * How one probe command fared, kept in the facts so that a finding can say why something is missing (for example
 * {@code nvidia-smi} installed but failing because the driver is not loaded).
 *
 * @param outcome the outcome
 * @param detail the tool's own words for a failure, or empty
 */
public record ToolRun(Outcome outcome, String detail) {

    /** The outcome of one probe command. */
    public enum Outcome {
        OK,
        NOT_INSTALLED,
        FAILED,
        /** The output had no section for this probe. */
        NOT_PROBED
    }

    public ToolRun {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }

    static ToolRun of(ProbeSection section) {
        if (section.succeeded()) {
            return new ToolRun(Outcome.OK, "");
        }
        if (section.notInstalled() && section.name().equals("ready-marker")) {
            return new ToolRun(Outcome.NOT_INSTALLED, "absent"); // no marker file, not a missing command
        }
        return new ToolRun(section.notInstalled() ? Outcome.NOT_INSTALLED : Outcome.FAILED, section.failure());
    }

    static ToolRun notProbed() {
        return new ToolRun(Outcome.NOT_PROBED, "not probed");
    }

    public boolean ok() {
        return outcome == Outcome.OK;
    }
}
