package dev.gantry.core.wiring;

import dagger.Lazy;
import dagger.Module;
import dagger.Provides;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.advisor.Advisor;
import dev.gantry.core.advisor.AdvisorSettings;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.secrets.ReferenceSecretResolver;
import dev.gantry.core.spec.SpecReader;
import dev.gantry.images.ImageCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import javax.inject.Singleton;

/** Provides core's services from the settings record; the classes themselves know nothing of Dagger. */
@Module
final class CoreModule {
    private CoreModule() {
    }

    @Provides
    static GantryConfig config(GantrySettings settings) {
        return settings.config();
    }

    @Provides
    static Clock clock(GantrySettings settings) {
        return settings.clock();
    }

    @Provides
    @Singleton
    static SpecReader specs(GantrySettings settings) {
        return new SpecReader(settings.config().runs().maxJobs());
    }

    @Provides
    @Singleton
    static SecretResolver secrets(GantrySettings settings) {
        // Key Vault is the settings' port: core decides which references go there and never talks to Azure itself.
        return new ReferenceSecretResolver(settings.environment(), settings.workingDirectory(), settings.keyVault());
    }

    /** The catalog given in code, else the configured file, else the refreshed cache, else the embedded snapshot. */
    @Provides
    @Singleton
    static Catalog catalog(GantrySettings settings) {
        if (settings.catalog().isPresent()) {
            return settings.catalog().get();
        }
        if (settings.config().catalogFile().isPresent()) {
            return CatalogLoader.fromFile(settings.workingDirectory().resolve(settings.config().catalogFile().get()));
        }
        Path cache = settings.home().resolve(".gantry").resolve("catalog");
        if (Files.isDirectory(cache)) {
            return CatalogLoader.cached(cache).orElseGet(CatalogLoader::embedded);
        }
        return CatalogLoader.embedded();
    }

    @Provides
    @Singleton
    static Advisor advisor(Catalog catalog, GantryConfig config, Clock clock) {
        // The settings' clock dates the catalog's age in plans, as it dates everything else the facade records.
        return new Advisor(catalog, ImageCatalog.builtIn(),
                new AdvisorSettings(config.defaultRegions(), config.defaultSpot(), config.adviceScheduler(),
                        config.defaultZones()), clock);
    }

    @Provides
    @Singleton
    static CoreServices services(GantrySettings settings, SpecReader specs, Lazy<BackendRegistry> registry,
                                 SecretResolver secrets,
                                 Lazy<Catalog> catalog, Lazy<Advisor> advisor, Clock clock) {
        return new CoreServices(settings, settings.config(), specs, registry::get, secrets,
                catalog::get, advisor::get, clock);
    }
}
