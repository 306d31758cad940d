package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * The names a backend gives the settings the probe's advice points at, as {@code gantry.yaml} spells them: the hosts
 * module reads no backend's settings, so the backend passes its own names in ({@code backends.cyclecloud.workDir}).
 *
 * @param workDir the setting that holds the work directory
 * @param containerRuntime the setting that chooses the container runtime
 */
public record SettingNames(String workDir, String containerRuntime) {
    /** For callers that are no backend (a bare probe): the settings described, not named. */
    public static final SettingNames UNNAMED = new SettingNames("the work directory setting",
            "the container runtime in settings");

    public SettingNames {
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(containerRuntime, "containerRuntime");
    }

    /** The names of a backend whose keys are {@code workDir} and {@code containerRuntime} under {@code prefix}. */
    public static SettingNames under(String prefix) {
        return new SettingNames(prefix + ".workDir", prefix + ".containerRuntime");
    }
}
