package dev.gantry.core.backends;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The installed backends by name. Built from the providers ServiceLoader found (plus any a program or test adds);
 * two providers with one name fail loudly, an unknown name fails with the list of installed ones.
 */
public final class BackendRegistry {
    private final Map<String, BackendProvider> providers;

    public BackendRegistry(Iterable<BackendProvider> found) {
        Map<String, BackendProvider> byName = new TreeMap<>();
        for (BackendProvider provider : found) {
            String name = provider.name();
            BackendProvider earlier = byName.putIfAbsent(name, provider);
            if (earlier != null && earlier.getClass() != provider.getClass()) {
                throw new GantryException(ErrorCode.DUPLICATE_BACKEND, "two installed backends are named '" + name
                        + "': " + earlier.getClass().getName() + " and " + provider.getClass().getName()
                        + "; remove one of their jars from the class path");
            }
        }
        this.providers = Collections.unmodifiableMap(byName);
    }

    /** Installed providers sorted by name. */
    public List<BackendProvider> providers() {
        return List.copyOf(providers.values());
    }

    public Optional<BackendProvider> find(String name) {
        return Optional.ofNullable(providers.get(name));
    }

    public BackendProvider require(String name) {
        BackendProvider provider = providers.get(name);
        if (provider == null) {
            throw new GantryException(ErrorCode.UNKNOWN_BACKEND, "unknown backend '" + name + "'; installed backends: "
                    + (providers.isEmpty() ? "none" : String.join(", ", providers.keySet()))
                    + NearMiss.suggestion(name, providers.keySet()));
        }
        return provider;
    }

    /**
     * Creates the named backend after checking its settings against the keys it declares: unknown keys (typos) and
     * secrets given in clear instead of as references are refused before the backend sees them.
     */
    public Backend create(String name, BackendConfig config, BackendContext context) {
        BackendProvider provider = require(name);
        checkSettings(provider, config);
        return provider.create(config, context);
    }

    /**
     * Checks a backend's settings against the keys its provider declares, as {@link #create} does before the backend
     * sees them: unknown keys, secrets in clear and missing required keys fail with CONFIG_INVALID.
     */
    public void checkSettings(BackendProvider provider, BackendConfig config) {
        ConfigProblems found = new ConfigProblems(config);
        List<ConfigKey> keys = provider.configKeys();
        found.unknownKeys(keys);
        List<Problem> problems = new ArrayList<>(found.problems());
        for (ConfigKey key : keys) {
            if (key.secret()) {
                config.values().forEach((given, value) -> {
                    if (key.matches(given) && !isReference(value)) {
                        problems.add(config.problem(given, "is a secret and must be a reference (env:NAME, file:PATH "
                                + "or a Key Vault secret URI), not the value itself"));
                    }
                });
            }
        }
        for (ConfigKey key : keys) {
            if (key.required() && !key.name().contains("[*]") && config.get(key.name()).isEmpty()) {
                problems.add(config.problem(key.name(), "is required (" + key.description() + ")"));
            }
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    private static boolean isReference(String value) {
        try {
            SecretRef.parse(value);
            return true;
        } catch (GantryException e) {
            return false;
        }
    }
}
