package dev.gantry.core.config;

import dev.gantry.api.Scheduler;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 * @param adviceScheduler the scheduler the advisor assumes for orchestrator advice
 * @param catalogFile a VM catalog file to use instead of the built-in one
 * @param stateDirectory where job state is kept (default {@code ~/.gantry/state}): the SQLite state database
 *     {@code state.db} unless {@code stateServer} is set, and each backend's own state either way
 * @param stateServer a PostgreSQL server that holds the state database instead, shared by a team
 * @param source where the configuration came from, for messages: a file, or {@value #BUILT_IN}
 * @param backendLocations where each backend setting was read, by backend and key, for settings read from a file
 * @param runs how workflow runs are driven: {@code runs.pollInterval}, {@code spot.onDemandAfterEvictions} and
 *     {@code spot.nextRegionAfterEvictions} (default {@link RunSettings#DEFAULT})
 * @param defaultZones availability zones asked per region ({@code defaults.zones}) for the regions a workload asks
 *     no zones in: a workload's own {@code zones} win for the regions it names; empty for any zone
 */
public record GantryConfig(
        String backend,
        Map<String, Map<String, String>> backends,
        List<String> defaultRegions,
        Optional<SpotPolicy> defaultSpot,
        Optional<Scheduler> adviceScheduler,
        Optional<Path> catalogFile,
        Path stateDirectory,
        Optional<StateServer> stateServer,
        String source,
        Map<String, Map<String, SourceLocation>> backendLocations,
        RunSettings runs,
        Map<String, List<String>> defaultZones) {

    public static final String DEFAULT_BACKEND = "manual";
    public static final String BUILT_IN = "built-in defaults";

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
        Objects.requireNonNull(stateServer, "stateServer");
        Objects.requireNonNull(source, "source");
        TreeMap<String, Map<String, SourceLocation>> where = new TreeMap<>();
        Objects.requireNonNull(backendLocations, "backendLocations")
                .forEach((name, values) -> where.put(name, Collections.unmodifiableMap(new TreeMap<>(values))));
        backendLocations = Collections.unmodifiableMap(where);
        Objects.requireNonNull(runs, "runs");
        defaultZones = copyZones(Objects.requireNonNull(defaultZones, "defaultZones"));
    }

    /** A configuration without {@code defaults.zones}: any zone, unless a workload asks. */
    public GantryConfig(String backend, Map<String, Map<String, String>> backends, List<String> defaultRegions,
                        Optional<SpotPolicy> defaultSpot, Optional<Scheduler> adviceScheduler,
                        Optional<Path> catalogFile, Path stateDirectory, Optional<StateServer> stateServer,
                        String source, Map<String, Map<String, SourceLocation>> backendLocations, RunSettings runs) {
        this(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile, stateDirectory,
                stateServer, source, backendLocations, runs, Map.of());
    }

    /** A configuration with the default run settings. */
    public GantryConfig(String backend, Map<String, Map<String, String>> backends, List<String> defaultRegions,
                        Optional<SpotPolicy> defaultSpot, Optional<Scheduler> adviceScheduler,
                        Optional<Path> catalogFile, Path stateDirectory, Optional<StateServer> stateServer,
                        String source, Map<String, Map<String, SourceLocation>> backendLocations) {
        this(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile, stateDirectory,
                stateServer, source, backendLocations, RunSettings.DEFAULT);
    }

    /** A configuration whose backend settings were not read from a file, with the default run settings. */
    public GantryConfig(String backend, Map<String, Map<String, String>> backends, List<String> defaultRegions,
                        Optional<SpotPolicy> defaultSpot, Optional<Scheduler> adviceScheduler,
                        Optional<Path> catalogFile, Path stateDirectory, String source) {
        this(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile, stateDirectory,
                Optional.empty(), source, Map.of(), RunSettings.DEFAULT);
    }

    /**
     * What Gantry uses when no file is found: the default backend with no settings, so its own defaults apply (the
     * manual backend's run jobs on this machine). Core never spells a backend's settings.
     */
    public static GantryConfig defaults(Path home) {
        return new GantryConfig(DEFAULT_BACKEND, Map.of(DEFAULT_BACKEND, Map.of()), List.of(),
                Optional.empty(), Optional.empty(), Optional.empty(), defaultStateDirectory(home), BUILT_IN);
    }

    static Path defaultStateDirectory(Path home) {
        return home.resolve(".gantry").resolve("state");
    }

    /** One backend's settings as the SPI takes them; empty when the configuration has no section for it. */
    public BackendConfig backendConfig(String name) {
        return new BackendConfig(name, backends.getOrDefault(name, Map.of()),
                backendLocations.getOrDefault(name, Map.of()));
    }

    /** The settings of the selected backend. */
    public BackendConfig selectedBackendConfig() {
        return backendConfig(backend);
    }

    public GantryConfig withBackend(String name) {
        return new GantryConfig(name, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, stateServer, source, backendLocations, runs, defaultZones);
    }

    public GantryConfig withBackendSettings(String name, Map<String, String> settings) {
        Map<String, Map<String, String>> all = new TreeMap<>(backends);
        all.put(name, settings);
        // Settings given in code were read from no file: their old locations would point at other values.
        Map<String, Map<String, SourceLocation>> where = new TreeMap<>(backendLocations);
        where.remove(name);
        return new GantryConfig(backend, all, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, stateServer, source, where, runs, defaultZones);
    }

    public GantryConfig withStateDirectory(Path directory) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                directory, stateServer, source, backendLocations, runs, defaultZones);
    }

    /** The state database on a PostgreSQL server instead of the SQLite file in the state directory. */
    public GantryConfig withStateServer(StateServer server) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, Optional.of(server), source, backendLocations, runs, defaultZones);
    }

    public GantryConfig withCatalogFile(Path file) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler,
                Optional.of(file), stateDirectory, stateServer, source, backendLocations, runs, defaultZones);
    }

    public GantryConfig withRuns(RunSettings settings) {
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, stateServer, source, backendLocations, settings, defaultZones);
    }

    /** The zones asked per region, copied in order, each list unmodifiable. */
    private static Map<String, List<String>> copyZones(Map<String, List<String>> zones) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        zones.forEach((region, names) -> copy.put(region, List.copyOf(names)));
        return Collections.unmodifiableMap(copy);
    }

    @Override
    public String toString() {
        // Backend values may hold secrets by mistake: show keys only.
        StringBuilder keys = new StringBuilder();
        backends.forEach((name, values) -> keys.append(keys.length() == 0 ? "" : ", ").append(name)
                .append(values.keySet()));
        return "GantryConfig[backend=" + backend + ", backends={" + keys + "}, defaultRegions=" + defaultRegions
                + ", defaultZones=" + defaultZones + ", defaultSpot=" + defaultSpot + ", adviceScheduler="
                + adviceScheduler + ", catalogFile="
                + catalogFile + ", stateDirectory=" + stateDirectory + ", stateServer=" + stateServer + ", runs=" + runs
                + ", source=" + source + "]";
    }
}
