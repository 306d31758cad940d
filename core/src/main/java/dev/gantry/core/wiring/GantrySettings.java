package dev.gantry.core.wiring;

import dev.gantry.api.backend.BackendProvider;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.plugins.PluginPlaces;
import dev.gantry.core.secrets.SecretStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one record the core component is built from.
 *
 * @param config the resolved configuration
 * @param environment the process environment (secret references, credentials)
 * @param workingDirectory where relative paths are resolved
 * @param home the user's home, for the catalog cache
 * @param extraProviders backends added in code (tests, embedding programs) besides the discovered ones
 * @param discoverBackends whether to look for providers with ServiceLoader
 * @param catalog a catalog given in code, instead of the configured or embedded one
 * @param clock the clock
 * @param keyVault where {@code keyvault:} secret references are fetched (Azure Key Vault, from the Azure module)
 * @param pluginPlaces where backend plugins are looked for when {@code discoverBackends} is set, in order: a
 *     directory of plugins or one plugin jar each, and which of them must exist (see {@link PluginPlaces})
 */
public record GantrySettings(GantryConfig config, Map<String, String> environment, Path workingDirectory, Path home,
                             List<BackendProvider> extraProviders, boolean discoverBackends,
                             Optional<Catalog> catalog, Clock clock, SecretStore keyVault,
                             PluginPlaces pluginPlaces) {
    /**
     * Settings that look for plugins where the CLI does: {@code GANTRY_PLUGIN_PATH} of {@code environment}, then
     * {@code $XDG_DATA_HOME/gantry/plugins} (by default under {@code home}).
     */
    public GantrySettings(GantryConfig config, Map<String, String> environment, Path workingDirectory, Path home,
                          List<BackendProvider> extraProviders, boolean discoverBackends, Optional<Catalog> catalog,
                          Clock clock, SecretStore keyVault) {
        this(config, environment, workingDirectory, home, extraProviders, discoverBackends, catalog, clock, keyVault,
                PluginPlaces.of(environment, home));
    }

    public GantrySettings {
        Objects.requireNonNull(config, "config");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(home, "home");
        extraProviders = List.copyOf(extraProviders);
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(keyVault, "keyVault");
        Objects.requireNonNull(pluginPlaces, "pluginPlaces");
    }
}
