package dev.gantry.api.backend;

import java.util.Objects;

/**
 * One prerequisite checked on one host: its stable name (e.g. {@code gpu.count}), the verdict, what the host has,
 * what is needed, and how to fix it when it is not OK.
 *
 * @param name the check's stable name, e.g. {@code gpu.count} or {@code driver.nvidia}
 * @param status the verdict
 * @param found what the host has, e.g. {@code 8} or {@code 535.104.05}; empty text when nothing was found
 * @param needed what the plan or the hardware needs
 * @param fix how to fix it; empty text when the check is OK
 */
public record HostCheck(String name, Status status, String found, String needed, String fix) {
    /** The verdict of a check. */
    public enum Status {
        /** Meets what is needed. */
        OK,
        /** Works, but worth attention (an old driver, little free disk). */
        WARN,
        /** The plan cannot run here until this is fixed. */
        MISSING
    }

    /**
     * Checks that every component is given.
     *
     * @param name the check's name
     * @param status the verdict
     * @param found what the host has
     * @param needed what is needed
     * @param fix how to fix it
     * @throws NullPointerException when a component is null
     */
    public HostCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(needed, "needed");
        Objects.requireNonNull(fix, "fix");
    }
}
