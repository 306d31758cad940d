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
import dev.gantry.core.plugins.PluginLoader;
import dev.gantry.model.InstalledBackend;
import dev.gantry.model.InstalledBackends;
import dev.gantry.model.PluginFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The installed backends by name. Built from the providers ServiceLoader found on Gantry's class path (plus any a
 * program or test adds) and those of the backend plugins found in the plugin directories. Two providers on the class
 * path with one name fail loudly; a plugin whose backend's name is taken is refused and reported, as is a plugin that
 * fails to load, and every other backend still works. An unknown name fails with the installed ones, the artifact
 * that provides it when it is one of Gantry's backends, the plugin directories searched and the plugins that failed.
 */
public final class BackendRegistry {
    /** Gantry's own backends and the artifact each comes in, for a program that lacks one. */
    private static final Map<String, String> GANTRY_BACKENDS = Map.of(
            "manual", "dev.gantry:gantry-backend-manual", "cyclecloud", "dev.gantry:gantry-backend-cyclecloud",
            "aks", "dev.gantry:gantry-backend-aks", "batch", "dev.gantry:gantry-backend-batch");

    private final Map<String, BackendProvider> providers;
    private final Map<String, Path> pluginJars;
    private final List<PluginFailure> failures;
    private final List<Path> pluginDirectories;
    private final AtomicBoolean warned = new AtomicBoolean();

    public BackendRegistry(Iterable<BackendProvider> found) {
        this(found, PluginLoader.Loaded.none(), List.of());
    }

    /**
     * @param builtIn the providers on Gantry's class path and those added in code
     * @param plugins what the plugins provide, in the order of the places searched
     * @param pluginDirectories the places searched for plugins, for the unknown-backend error
     */
    public BackendRegistry(Iterable<BackendProvider> builtIn, PluginLoader.Loaded plugins,
                           List<Path> pluginDirectories) {
        Map<String, BackendProvider> byName = new TreeMap<>();
        for (BackendProvider provider : builtIn) {
            String name = provider.name();
            BackendProvider earlier = byName.putIfAbsent(name, provider);
            if (earlier != null && earlier.getClass() != provider.getClass()) {
                throw new GantryException(ErrorCode.DUPLICATE_BACKEND, "two installed backends are named '" + name
                        + "': " + earlier.getClass().getName() + " and " + provider.getClass().getName()
                        + "; remove one of their jars from the class path");
            }
        }
        Map<String, Path> jars = new HashMap<>();
        List<PluginFailure> refused = new ArrayList<>(plugins.failures());
        for (InstalledBackend plugin : plugins.backends()) {
            Path jar = plugin.plugin().orElseThrow();
            BackendProvider earlier = byName.putIfAbsent(plugin.name(), plugin.provider());
            if (earlier != null) {
                refused.add(new PluginFailure(jar, Optional.of(plugin.name()), ErrorCode.DUPLICATE_BACKEND + ": its backend '" + plugin.name()
                        + "' (" + plugin.provider().getClass().getName() + ") is already provided by "
                        + (jars.containsKey(plugin.name()) ? jars.get(plugin.name()) : InstalledBackend.BUILT_IN + " "
                        + earlier.getClass().getName()) + "; rename the plugin's backend or remove one of the two"));
            } else {
                jars.put(plugin.name(), jar);
            }
        }
        this.providers = Collections.unmodifiableMap(byName);
        this.pluginJars = Map.copyOf(jars);
        this.failures = List.copyOf(refused);
        this.pluginDirectories = List.copyOf(pluginDirectories);
    }

    /** Installed providers sorted by name. */
    public List<BackendProvider> providers() {
        return List.copyOf(providers.values());
    }

    /**
     * Every backend with its origin and version, the plugins that failed and the places searched.
     *
     * @param gantryVersion the version of a built-in backend whose jar's manifest names none
     */
    public InstalledBackends installed(String gantryVersion) {
        List<InstalledBackend> backends = new ArrayList<>();
        providers.forEach((name, provider) -> {
            Optional<Path> jar = Optional.ofNullable(pluginJars.get(name));
            String version = PluginLoader.versionOf(provider);
            backends.add(new InstalledBackend(provider, jar, jar.isEmpty()
                    && version.equals(InstalledBackend.UNKNOWN_VERSION) ? gantryVersion : version));
        });
        return new InstalledBackends(backends, failures, pluginDirectories);
    }

    /** The plugins that provide no backend, each with its path and the reason. */
    public List<PluginFailure> failures() {
        return failures;
    }

    public Optional<BackendProvider> find(String name) {
        return Optional.ofNullable(providers.get(name));
    }

    /**
     * The named backend's provider. The first time a backend is asked for, each plugin that failed to load is
     * logged once as a warning (the CLI prints it on standard error); listing the backends warns of nothing, since
     * the listing shows them.
     */
    public BackendProvider require(String name) {
        BackendProvider provider = providers.get(name);
        if (provider == null) {
            throw new GantryException(ErrorCode.UNKNOWN_BACKEND, "unknown backend '" + name + "'; installed backends: "
                    + (providers.isEmpty() ? "none" : String.join(", ", providers.keySet()))
                    + NearMiss.suggestion(name, providers.keySet()) + whereToFind(name));
        }
        if (!failures.isEmpty() && warned.compareAndSet(false, true)) {
            // the logger is looked up only here: starting logging costs every command that has nothing to say
            System.Logger log = System.getLogger(BackendRegistry.class.getName());
            failures.forEach(f -> log.log(System.Logger.Level.WARNING, "backend plugin " + f.describe()
                    + " (gantry backends lists every backend and plugin)"));
        }
        return provider;
    }

    /** The artifact of one of Gantry's backends, the plugin directories searched and the plugins that failed. */
    private String whereToFind(String name) {
        StringBuilder text = new StringBuilder();
        String artifact = GANTRY_BACKENDS.get(name);
        if (artifact != null) {
            text.append("; '").append(name).append("' is provided by ").append(artifact)
                    .append(": add it to the class path (a runtime dependency)");
        }
        if (!pluginDirectories.isEmpty()) {
            text.append("; plugins searched in: ").append(pluginDirectories.stream().map(Path::toString)
                    .collect(Collectors.joining(", ")));
        }
        if (!failures.isEmpty()) {
            text.append("; plugins that failed to load: ").append(failures.stream().map(PluginFailure::describe)
                    .collect(Collectors.joining("; ")));
        }
        return text.toString();
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
