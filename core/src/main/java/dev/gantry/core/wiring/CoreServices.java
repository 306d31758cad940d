package dev.gantry.core.wiring;

import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.advisor.Advisor;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.spec.SpecReader;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * The services the core component provides. The catalog and the advisor are loaded on first use: validating a spec
 * or listing jobs never pays for loading prices. The backends are found on first use too: ServiceLoader looks for
 * provider files in every jar on the class path (opening all of them, about 30 ms for the CLI's 75), which a plan or
 * a validation never needs. The state database is not here: core decides and does no I/O; the facade opens it.
 */
public record CoreServices(GantrySettings settings, GantryConfig config, SpecReader specs,
                           Supplier<BackendRegistry> registry,
                           SecretResolver secrets,
                           Supplier<Catalog> catalog,
                           Supplier<Advisor> advisor, Clock clock) {
}
