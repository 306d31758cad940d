package dev.gantry.api.backend;

import java.util.Objects;

/**
 * One prerequisite checked on one host: its stable name (e.g. {@code gpu.count}), the verdict, what the host has,
 * what is needed, and how to fix it when it is not OK.
 */
public record HostCheck(String name, Status status, String found, String needed, String fix) {
    /** The verdict of a check. */
    public enum Status {
        OK,
        /** Works, but worth attention (an old driver, little free disk). */
        WARN,
        /** The plan cannot run here until this is fixed. */
        MISSING
    }

    public HostCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(needed, "needed");
        Objects.requireNonNull(fix, "fix");
    }
}
