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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
     * Creates the named backend after checking its settings against the keys it declares. Secrets given in clear
     * instead of as references are refused before the backend sees them. Unknown keys (typos) and missing required
     * keys are refused together with every problem the backend's own binding finds (a key file left out, a value out
     * of range), so that a configuration is fixed in one round: the backend binds its settings even then, and its
     * problem about a key replaces the declaration's about the same key.
     */
    public Backend create(String name, BackendConfig config, BackendContext context) {
        BackendProvider provider = require(name);
        List<Problem> declared = settingProblems(provider, config);
        if (declared.stream().anyMatch(p -> p.message().startsWith(CLEAR_SECRET))) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, declared);
        }
        Backend backend;
        try {
            backend = provider.create(config, context);
        } catch (GantryException e) {
            if (declared.isEmpty() || e.code() != ErrorCode.CONFIG_INVALID || e.problems().isEmpty()) {
                throw e;
            }
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, merged(declared, e.problems()));
        }
        if (!declared.isEmpty()) {
            closeQuietly(backend);
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, declared);
        }
        return backend;
    }

    /** The declaration's problems, less those about a key the backend's binding reports itself, then the backend's. */
    private static List<Problem> merged(List<Problem> declared, List<Problem> bound) {
        Set<String> boundPaths = new HashSet<>();
        bound.forEach(p -> boundPaths.add(p.path()));
        List<Problem> all = new ArrayList<>();
        declared.stream().filter(p -> !boundPaths.contains(p.path())).forEach(all::add);
        bound.stream().filter(p -> !all.contains(p)).forEach(all::add);
        return all;
    }

    private static void closeQuietly(Backend backend) {
        try {
            backend.close();
        } catch (Exception e) {
            // it was never used; the configuration error is what the caller needs to see
        }
    }

    /**
     * Checks a backend's settings against the keys its provider declares, as {@link #create} does: unknown keys,
     * secrets in clear and missing required keys fail with CONFIG_INVALID.
     */
    public void checkSettings(BackendProvider provider, BackendConfig config) {
        List<Problem> problems = settingProblems(provider, config);
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    private static final String CLEAR_SECRET = "is a secret and must be a reference";

    private static List<Problem> settingProblems(BackendProvider provider, BackendConfig config) {
        ConfigProblems found = new ConfigProblems(config);
        List<ConfigKey> keys = provider.configKeys();
        found.unknownKeys(keys);
        List<Problem> problems = new ArrayList<>(found.problems());
        for (ConfigKey key : keys) {
            if (key.secret()) {
                config.values().forEach((given, value) -> {
                    if (key.matches(given) && !isReference(value)) {
                        problems.add(config.problem(given, CLEAR_SECRET + " (env:NAME, file:PATH or a Key Vault "
                                + "secret URI), not the value itself"));
                    }
                });
            }
        }
        for (ConfigKey key : keys) {
            if (key.required() && !key.name().contains("[*]") && config.get(key.name()).isEmpty()) {
                problems.add(config.problem(key.name(), "is required (" + key.description() + ")"));
            }
        }
        return problems;
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
