package dev.gantry.core.config;

import dev.gantry.api.SpotPolicy;
import dev.gantry.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Gantry's configuration after the file, the {@code GANTRY_*} environment and command-line flags are applied.
 *
 * @param backend the backend jobs are submitted to (default {@value #DEFAULT_BACKEND})
 * @param backends each backend's settings, flattened to dotted keys ({@code hosts[0].address}); free-form here,
 *     each backend checks its own keys
 * @param defaultRegions regions for workloads that name none
 * @param defaultSpot spot policy for workloads that set none
 * @param adviceScheduler the scheduler the advisor assumes for orchestrator advice: slurm, gridengine or pbs
 * @param catalogFile a VM catalog file to use instead of the built-in one
 * @param stateDirectory where job state is kept (default {@code ~/.gantry/state})
 * @param source where the configuration came from, for messages: a file, or {@value #BUILT_IN}
 */
public record GantryConfig(
        String backend,
        Map<String, Map<String, String>> backends,
        List<String> defaultRegions,
        Optional<SpotPolicy> defaultSpot,
        Optional<String> adviceScheduler,
        Optional<Path> catalogFile,
        Path stateDirectory,
        String source) {

    public static final String DEFAULT_BACKEND = "manual";
    public static final String BUILT_IN = "built-in defaults";
    public static final List<String> SCHEDULERS = List.of("slurm", "gridengine", "pbs");

    public GantryConfig {
        Objects.requireNonNull(backend, "backend");
        TreeMap<String, Map<String, String>> copy = new TreeMap<>();
        Objects.requireNonNull(backends, "backends")
                .forEach((name, values) -> copy.put(name, Collections.unmodifiableMap(new TreeMap<>(values))));
        backends = Collections.unmodifiableMap(copy);
        defaultRegions = List.copyOf(defaultRegions);
        Objects.requireNonNull(defaultSpot, "defaultSpot");
        Objects.requireNonNull(adviceScheduler, "adviceScheduler");
        Objects.requireNonNull(catalogFile, "catalogFile");
        Objects.requireNonNull(stateDirectory, "stateDirectory");
        Objects.requireNonNull(source, "source");
    }

    /** What Gantry uses when no file is found: the manual backend running jobs on this machine. */
    public static GantryConfig defaults(Path home) {
        return new GantryConfig(DEFAULT_BACKEND, Map.of(DEFAULT_BACKEND, Map.of("transport", "local")), List.of(),
                Optional.empty(), Optional.empty(), Optional.empty(), defaultStateDirectory(home), BUILT_IN);
    }

    static Path defaultStateDirectory(Path home) {
        return home.resolve(".gantry").resolve("state");
    }

    /** One backend's settings as the SPI takes them; empty when the configuration has no section for it. */
    public BackendConfig backendConfig(String name) {
        return new BackendConfig(name, backends.getOrDefault(name, Map.of()));
    }

    /** The settings of the selected backend. */
    public BackendConfig selectedBackendConfig() {
        return backendConfig(backend);
    }

    public GantryConfig withBackend(String name) {
        return new GantryConfig(name, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, source);
    }

    public GantryConfig withBackendSettings(String name, Map<String, String> settings) {
        Map<String, Map<String, String>> all = new TreeMap<>(backends);
        all.put(name, settings);
        return new GantryConfig(backend, all, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, source);
    }

    public GantryConfig withStateDirectory(Path directory) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                directory, source);
    }

    public GantryConfig withCatalogFile(Path file) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler,
                Optional.of(file), stateDirectory, source);
    }

    @Override
    public String toString() {
        // Backend values may hold secrets by mistake: show keys only.
        StringBuilder keys = new StringBuilder();
        backends.forEach((name, values) -> keys.append(keys.length() == 0 ? "" : ", ").append(name)
                .append(values.keySet()));
        return "GantryConfig[backend=" + backend + ", backends={" + keys + "}, defaultRegions=" + defaultRegions
                + ", defaultSpot=" + defaultSpot + ", adviceScheduler=" + adviceScheduler + ", catalogFile="
                + catalogFile + ", stateDirectory=" + stateDirectory + ", source=" + source + "]";
    }
}
