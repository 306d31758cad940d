package dev.gantry.model;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A plugin that provides no backend: a jar that cannot be read, a provider that fails to load or to initialise, or
 * one whose name another backend already has. Every other backend still works.
 *
 * @param plugin the plugin's jar (or its directory)
 * @param reason why, with what to do where there is something to do
 */
public record PluginFailure(Path plugin, String reason) {
    public PluginFailure {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code PATH: REASON}, as a warning prints it. */
    public String describe() {
        return plugin + ": " + reason;
    }
}
