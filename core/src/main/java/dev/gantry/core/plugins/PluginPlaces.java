package dev.gantry.core.plugins;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where backend plugins are looked for, in order, and which of those places someone named: a named place must exist
 * (one that does not is a mistyped entry, reported as a failed plugin), while the user's plugins directory need not.
 *
 * @param searched every place, in order: a directory of plugins or one plugin jar each
 * @param named the places of {@code searched} that must exist
 * @param namedBy what named them, for the failure's message: {@code GANTRY_PLUGIN_PATH}, or the method of a program
 */
public record PluginPlaces(List<Path> searched, List<Path> named, String namedBy) {
    public PluginPlaces {
        searched = List.copyOf(searched);
        named = List.copyOf(named);
        Objects.requireNonNull(namedBy, "namedBy");
    }

    /** Where the gantry command looks ({@link PluginDirectories#of}): the plugin path's entries are named. */
    public static PluginPlaces of(Map<String, String> environment, Path home) {
        return new PluginPlaces(PluginDirectories.of(environment, home), PluginDirectories.named(environment),
                PluginDirectories.PATH_VARIABLE);
    }

    /** Only these places, in this order, each named by {@code namedBy} (a program that names them in code). */
    public static PluginPlaces only(List<Path> places, String namedBy) {
        return new PluginPlaces(places, places, namedBy);
    }
}
