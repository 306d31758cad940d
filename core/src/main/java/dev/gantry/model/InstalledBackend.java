package dev.gantry.model;

import dev.gantry.api.backend.BackendProvider;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A backend Gantry can use and where it came from, as {@code gantry backends} lists it.
 *
 * @param provider the backend's provider
 * @param plugin the plugin jar that holds the provider; empty for a backend built in (on Gantry's class path)
 * @param version the {@code Implementation-Version} of the provider's jar, Gantry's version for a built-in backend
 *     whose jar names none, else {@link #UNKNOWN_VERSION}
 */
public record InstalledBackend(BackendProvider provider, Optional<Path> plugin, String version) {
    /** The origin of a backend on Gantry's class path. */
    public static final String BUILT_IN = "built in";
    /** The version shown when neither the provider's jar nor Gantry's build names one. */
    public static final String UNKNOWN_VERSION = "unknown";

    /**
     * Checks that every component is given.
     *
     * @param provider the provider
     * @param plugin the plugin jar, or empty when built in
     * @param version the version
     * @throws NullPointerException when a component is null
     */
    public InstalledBackend {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(version, "version");
    }

    /** {@return the backend's name, as configuration names it} */
    public String name() {
        return provider.name();
    }

    /** {@return where the backend came from: {@code built in}, or the plugin jar's path} */
    public String origin() {
        return plugin.map(Path::toString).orElse(BUILT_IN);
    }
}
