package dev.gantry.cli;

/** How a verb prints its result. */
public enum OutputFormat {
    TABLE,
    JSON
}
