package dev.gantry.model;

import java.nio.file.Path;
import java.util.List;

/**
 * Every backend Gantry can use (built in and from plugins, sorted by name), the plugins that failed to provide one,
 * and the places searched for plugins.
 *
 * @param backends the usable backends, sorted by name
 * @param failures the plugins that provide no backend, with why
 * @param pluginDirectories where plugins were looked for, in order (none of them needs to exist)
 */
public record InstalledBackends(List<InstalledBackend> backends, List<PluginFailure> failures,
                                List<Path> pluginDirectories) {
    /**
     * Copies the lists.
     *
     * @param backends the usable backends, copied
     * @param failures the failed plugins, copied
     * @param pluginDirectories the directories searched, copied
     * @throws NullPointerException when a list or an element is null
     */
    public InstalledBackends {
        backends = List.copyOf(backends);
        failures = List.copyOf(failures);
        pluginDirectories = List.copyOf(pluginDirectories);
    }
}
