package dev.gantry.model;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A plugin that provides no backend: a jar that cannot be read, a provider that fails to load or to initialise, or
 * one whose name another backend already has. Every other backend still works.
 *
 * @param plugin the plugin's jar (or its directory)
 * @param backend the name of the backend it provides, where it got as far as naming one (a name already taken)
 * @param reason why, with what to do where there is something to do
 */
public record PluginFailure(Path plugin, Optional<String> backend, String reason) {
    /**
     * Checks that every component is given.
     *
     * @param plugin the jar or directory
     * @param backend the backend's name, or empty
     * @param reason why it provides no backend
     * @throws NullPointerException when a component is null
     */
    public PluginFailure {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * A plugin that failed before naming a backend.
     *
     * @param plugin the plugin's jar or directory
     * @param reason why, with what to do
     */
    public PluginFailure(Path plugin, String reason) {
        this(plugin, Optional.empty(), reason);
    }

    /** {@return {@code PATH: REASON}, as a warning prints it} */
    public String describe() {
        return plugin + ": " + reason;
    }
}
