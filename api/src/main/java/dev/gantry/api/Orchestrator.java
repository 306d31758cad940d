package dev.gantry.api;

/** The orchestrators Azure's guidance names; each has a backend of the same lower-case name. */
public enum Orchestrator {
    CYCLECLOUD,
    BATCH,
    AKS,
    MANUAL;

    /** The backend name, e.g. {@code cyclecloud}. */
    public String backendName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
