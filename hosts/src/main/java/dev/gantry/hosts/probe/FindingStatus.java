package dev.gantry.hosts.probe;

/** The verdict of one check. */
public enum FindingStatus {
    /** Present, or not needed. */
    OK,
    /** Needed and absent: a job placed here would fail. */
    MISSING,
    /** Worth knowing but not fatal: a job may still run (less memory than the plan's size, a failed boot check). */
    WARN
}
