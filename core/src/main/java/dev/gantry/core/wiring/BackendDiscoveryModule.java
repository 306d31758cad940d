package dev.gantry.core.wiring;

import dagger.Module;
import dagger.Provides;
import dagger.multibindings.ElementsIntoSet;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.plugins.PluginLoader;
import java.util.LinkedHashSet;
import java.util.ServiceLoader;
import java.util.Set;
import javax.inject.Singleton;

/**
 * The bridge between ServiceLoader and Dagger: backends are never wired by Dagger, they are discovered on the class
 * path and handed to the registry as one set, to which code (and tests) can add their own providers; backend plugins
 * are loaded from the plugin directories, each in a class loader of its own, when the registry is first needed.
 */
@Module
final class BackendDiscoveryModule {
    private BackendDiscoveryModule() {
    }

    @Provides
    @ElementsIntoSet
    static Set<BackendProvider> discovered(GantrySettings settings) {
        Set<BackendProvider> providers = new LinkedHashSet<>();
        if (settings.discoverBackends()) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            ServiceLoader.load(BackendProvider.class, loader != null ? loader : BackendRegistry.class.getClassLoader())
                    .forEach(providers::add);
        }
        return providers;
    }

    @Provides
    @ElementsIntoSet
    static Set<BackendProvider> addedInCode(GantrySettings settings) {
        return new LinkedHashSet<>(settings.extraProviders());
    }

    @Provides
    @Singleton
    static BackendRegistry registry(Set<BackendProvider> providers, GantrySettings settings) {
        if (!settings.discoverBackends()) {
            return new BackendRegistry(providers);
        }
        PluginLoader.Loaded plugins = new PluginLoader(BackendRegistry.class.getClassLoader())
                .load(settings.pluginPlaces());
        return new BackendRegistry(providers, plugins, settings.pluginPlaces().searched());
    }
}
