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

    /** The places searched, in order, for this environment and home; none of them needs to exist. */
    public static List<Path> of(Map<String, String> environment, Path home) {
        List<Path> places = new ArrayList<>();
        String path = environment.getOrDefault(PATH_VARIABLE, "");
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                places.add(Path.of(entry.strip()));
            }
        }
        String xdg = environment.getOrDefault("XDG_DATA_HOME", "");
        Path data = !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".local/share");
        places.add(data.resolve("gantry").resolve("plugins"));
        return List.copyOf(places);
    }
}
