package dev.gantry.core.config;

import dev.gantry.api.UserHome;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything the configuration is read from, so that loading is a pure function of its inputs (and tests need no
 * real home directory or environment).
 *
 * @param explicitFile the file given with {@code --config}; it must exist
 * @param environment the process environment; only {@code GANTRY_*} variables are read
 * @param workingDirectory where {@code ./gantry.yaml} is looked for, and what relative paths given in the
 *     environment or on the command line are resolved against
 * @param home the user's home: {@code ~/.gantry/config.yaml}, {@code ~} in paths, the default state directory
 * @param overrides settings from command-line flags, keyed by their path in the file: {@link #BACKEND},
 *     {@link #REGIONS}, {@link #SPOT}, {@link #ZONES} ({@code eastus=1,2;westus2=3}), {@link #ADVICE_SCHEDULER},
 *     {@link #CATALOG_FILE}, {@link #STATE_DIR},
 *     {@link #STATE_URL}, {@link #STATE_USER}, {@link #STATE_PASSWORD} (a secret reference),
 *     {@link #RUNS_POLL_INTERVAL} (a duration), {@link #RUNS_MAX_JOBS}, {@link #SPOT_ON_DEMAND_AFTER_EVICTIONS} and
 *     {@link #SPOT_NEXT_REGION_AFTER_EVICTIONS} (whole numbers), or
 *     {@code backends.NAME.KEY} for one backend setting; they win over the environment and the file
 */
public record ConfigSources(
        Optional<Path> explicitFile,
        Map<String, String> environment,
        Path workingDirectory,
        Path home,
        Map<String, String> overrides) {

    public static final String BACKEND = "backend";
    public static final String REGIONS = "defaults.regions";
    public static final String SPOT = "defaults.spot";
    /** {@code defaults.zones}; given as text (environment, flag) as {@code eastus=1,2;westus2=3}. */
    public static final String ZONES = "defaults.zones";
    public static final String ADVICE_SCHEDULER = "advice.scheduler";
    public static final String CATALOG_FILE = "catalog.file";
    public static final String STATE_DIR = "state.dir";
    public static final String STATE_URL = "state.url";
    public static final String STATE_USER = "state.user";
    public static final String STATE_PASSWORD = "state.password";
    public static final String RUNS_POLL_INTERVAL = RunSettings.POLL_INTERVAL;
    public static final String RUNS_MAX_JOBS = RunSettings.MAX_JOBS;
    public static final String SPOT_ON_DEMAND_AFTER_EVICTIONS = RunSettings.ON_DEMAND_AFTER_EVICTIONS;
    public static final String SPOT_NEXT_REGION_AFTER_EVICTIONS = RunSettings.NEXT_REGION_AFTER_EVICTIONS;

    public ConfigSources {
        Objects.requireNonNull(explicitFile, "explicitFile");
        environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(home, "home");
        // Sorted, so that problems about several overrides come out in a stable order.
        overrides = java.util.Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(overrides, "overrides")));
    }

    /** The running process's sources: its environment, {@code user.dir} and its home ({@code $HOME} first). */
    public static ConfigSources ofProcess(Optional<Path> explicitFile, Map<String, String> overrides) {
        Map<String, String> environment = System.getenv();
        return new ConfigSources(explicitFile, environment, Path.of(System.getProperty("user.dir")),
                UserHome.of(environment), overrides);
    }
}
