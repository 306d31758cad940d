package dev.gantry.core.plugins;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where backend plugins are looked for: each entry of {@code GANTRY_PLUGIN_PATH} (a directory of plugins or one
 * plugin jar, separated by the platform's path separator), then {@code $XDG_DATA_HOME/gantry/plugins}, or
 * {@code ~/.local/share/gantry/plugins} when {@code XDG_DATA_HOME} is unset or not absolute (as the XDG base
 * directory specification asks). The first place that provides a backend name wins.
 */
public final class PluginDirectories {
    public static final String PATH_VARIABLE = "GANTRY_PLUGIN_PATH";

    private PluginDirectories() {
    }

    /** The places searched, in order, for this environment and home: {@link #named}, then {@link #user}. */
    public static List<Path> of(Map<String, String> environment, Path home) {
        List<Path> places = new ArrayList<>(named(environment));
        places.add(user(environment, home));
        return List.copyOf(places);
    }

    /** The entries of {@code GANTRY_PLUGIN_PATH}: each must exist, since someone named it. */
    public static List<Path> named(Map<String, String> environment) {
        List<Path> places = new ArrayList<>();
        for (String entry : environment.getOrDefault(PATH_VARIABLE, "").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                places.add(Path.of(entry.strip()));
            }
        }
        return List.copyOf(places);
    }

    /** The user's plugins directory, which need not exist: most users have no plugin. */
    public static Path user(Map<String, String> environment, Path home) {
        String xdg = environment.getOrDefault("XDG_DATA_HOME", "");
        Path data = !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".local/share");
        return data.resolve("gantry").resolve("plugins");
    }
}
