package dev.gantry.core.config;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SecretRef;
import dev.gantry.api.UserHome;
import dev.gantry.core.spec.yaml.Binder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Loads Gantry's configuration. The file is the one given with {@code --config} (which must exist), else
 * {@code ./gantry.yaml}, else {@code ~/.gantry/config.yaml}, else the built-in defaults. {@code GANTRY_*}
 * environment variables override the file, and command-line flags override both. Stateless and thread-safe.
 */
public final class ConfigLoader {
    static final String BACKENDS_ENV_PREFIX = "GANTRY_BACKENDS_";
    /** The environment variables for the top-level settings, and the setting each one sets. */
    static final Map<String, String> ENVIRONMENT = Map.ofEntries(
            Map.entry("GANTRY_BACKEND", ConfigSources.BACKEND),
            Map.entry("GANTRY_STATE_DIR", ConfigSources.STATE_DIR),
            Map.entry("GANTRY_STATE_URL", ConfigSources.STATE_URL),
            Map.entry("GANTRY_STATE_USER", ConfigSources.STATE_USER),
            Map.entry("GANTRY_STATE_PASSWORD", ConfigSources.STATE_PASSWORD),
            Map.entry("GANTRY_REGIONS", ConfigSources.REGIONS),
            Map.entry("GANTRY_SPOT", ConfigSources.SPOT),
            Map.entry("GANTRY_ZONES", ConfigSources.ZONES),
            Map.entry("GANTRY_CATALOG", ConfigSources.CATALOG_FILE),
            Map.entry("GANTRY_ADVICE_SCHEDULER", ConfigSources.ADVICE_SCHEDULER),
            Map.entry("GANTRY_RUNS_POLL_INTERVAL", ConfigSources.RUNS_POLL_INTERVAL),
            Map.entry("GANTRY_RUNS_MAX_JOBS", ConfigSources.RUNS_MAX_JOBS),
            Map.entry("GANTRY_SPOT_ON_DEMAND_AFTER_EVICTIONS", ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS),
            Map.entry("GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS));
    static final List<String> OVERRIDE_KEYS = List.of(ConfigSources.BACKEND, ConfigSources.REGIONS,
            ConfigSources.SPOT, ConfigSources.ZONES, ConfigSources.ADVICE_SCHEDULER, ConfigSources.CATALOG_FILE,
            ConfigSources.STATE_DIR,
            ConfigSources.STATE_URL, ConfigSources.STATE_USER, ConfigSources.STATE_PASSWORD,
            ConfigSources.RUNS_POLL_INTERVAL, ConfigSources.RUNS_MAX_JOBS, ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS,
            ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS);

    public ConfigLoader() {
    }

    /**
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} listing every problem of the file, the environment
     *     and the overrides, file problems located as {@code FILE:LINE:COL: path: message}
     */
    public GantryConfig load(ConfigSources sources) {
        List<Problem> problems = new ArrayList<>();
        ConfigDraft draft = new ConfigDraft(GantryConfig.defaults(sources.home()));
        Optional<Path> file = findFile(sources);
        if (file.isPresent()) {
            Path shown = file.get();
            Path real = shown.isAbsolute() ? shown : sources.workingDirectory().resolve(shown);
            // A file replaces the built-in backend settings: a backend it does not configure gets its own defaults.
            draft.backends.clear();
            draft.source = shown.toString();
            problems.addAll(bindFile(shown.toString(), read(shown, real), sources.home(),
                    real.toAbsolutePath().getParent(), draft));
        }
        applyEnvironment(sources, draft, problems);
        sources.overrides().forEach((key, value) -> applyOverride(key, value, sources, draft, problems));
        if (!draft.stateUrlGiven && (draft.stateUser.isPresent() || draft.statePassword.isPresent())) {
            problems.add(Problem.of(draft.stateUser.isPresent() ? ConfigSources.STATE_USER
                    : ConfigSources.STATE_PASSWORD, "is set but state.url is not: they log in to a PostgreSQL state "
                    + "server; set state.url (GANTRY_STATE_URL) to its JDBC URL, or remove them to keep the SQLite "
                    + "database in state.dir"));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return draft.build();
    }

    /** Every problem of one configuration file (environment and flags not applied); empty when it is valid. */
    public List<Problem> validate(Path file) {
        String text;
        try {
            text = read(file, file);
        } catch (GantryException e) {
            return e.problems();
        }
        Path home = UserHome.ofProcess();
        ConfigDraft draft = new ConfigDraft(GantryConfig.defaults(home));
        return bindFile(file.toString(), text, home, file.toAbsolutePath().getParent(), draft);
    }

    private static List<Problem> bindFile(String name, String text, Path home, Path base, ConfigDraft draft) {
        Binder binder = new Binder(name);
        new ConfigFileBinder(binder, home, base).bind(text, draft);
        return binder.problems();
    }

    private static Optional<Path> findFile(ConfigSources sources) {
        if (sources.explicitFile().isPresent()) {
            Path given = sources.explicitFile().get();
            Path real = given.isAbsolute() ? given : sources.workingDirectory().resolve(given);
            if (!Files.isRegularFile(real)) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(Problem.of("",
                        "configuration file " + given + " (given with --config) "
                                + (Files.isDirectory(real) ? "is a directory" : "does not exist"))));
            }
            return Optional.of(given);
        }
        Path local = sources.workingDirectory().resolve("gantry.yaml");
        if (Files.isRegularFile(local)) {
            return Optional.of(local);
        }
        Path user = sources.home().resolve(".gantry").resolve("config.yaml");
        return Files.isRegularFile(user) ? Optional.of(user) : Optional.empty();
    }

    private static String read(Path shown, Path real) {
        try {
            return new String(Files.readAllBytes(real), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw unreadable(shown, "no such file");
        } catch (IOException e) {
            throw unreadable(shown, Files.isDirectory(real) ? "it is a directory" : e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static GantryException unreadable(Path file, String why) {
        return GantryException.invalid(ErrorCode.CONFIG_INVALID,
                List.of(Problem.of("", "cannot read configuration file " + file + ": " + why)));
    }

    private static void applyEnvironment(ConfigSources sources, ConfigDraft draft, List<Problem> problems) {
        // Sorted by name: the outcome and the order of problems never depend on the map's order.
        new TreeMap<>(sources.environment()).forEach((name, value) -> {
            String setting = ENVIRONMENT.get(name);
            if (setting != null) {
                apply(setting, value, name, "", sources, draft, problems);
            } else if (name.startsWith(BACKENDS_ENV_PREFIX)) {
                applyBackendVariable(name, value, draft, problems);
            }
            // Other GANTRY_* names are not configuration: Gantry also sets GANTRY_* variables inside every job.
        });
    }

    private static void applyBackendVariable(String name, String value, ConfigDraft draft, List<Problem> problems) {
        String rest = name.substring(BACKENDS_ENV_PREFIX.length());
        int cut = rest.indexOf('_');
        if (cut <= 0 || cut == rest.length() - 1) {
            problems.add(Problem.of(name, "names no backend setting; use GANTRY_BACKENDS_<BACKEND>_<KEY>, e.g. "
                    + "GANTRY_BACKENDS_MANUAL_TRANSPORT=local"));
            return;
        }
        String backend = rest.substring(0, cut).toLowerCase(Locale.ROOT);
        Optional<String> badName = SettingRules.checkBackendName(backend);
        if (badName.isPresent()) {
            problems.add(Problem.of(name, badName.get()));
            return;
        }
        Map<String, String> settings = draft.backendSettings(backend);
        String key = EnvironmentKeys.settingKey(rest.substring(cut + 1), settings.keySet());
        settings.put(key, value);
        draft.backendLocations(backend).remove(key); // the value no longer is the one the file has there
    }

    private static void applyOverride(String key, String value, ConfigSources sources, ConfigDraft draft,
            List<Problem> problems) {
        String suffix = " (given on the command line)";
        if (key.startsWith("backends.")) {
            String rest = key.substring("backends.".length());
            int cut = rest.indexOf('.');
            if (cut <= 0 || cut == rest.length() - 1) {
                problems.add(Problem.of(key, "names no backend setting; use backends.<backend>.<key>" + suffix));
                return;
            }
            String backend = rest.substring(0, cut);
            Optional<String> badName = SettingRules.checkBackendName(backend);
            if (badName.isPresent()) {
                problems.add(Problem.of(key, badName.get() + suffix));
                return;
            }
            draft.backendSettings(backend).put(rest.substring(cut + 1), value);
            draft.backendLocations(backend).remove(rest.substring(cut + 1));
            return;
        }
        if (!OVERRIDE_KEYS.contains(key)) {
            problems.add(Problem.of(key, "is not a configuration setting; settings are "
                    + String.join(", ", OVERRIDE_KEYS) + " and backends.<backend>.<key>"
                    + NearMiss.suggestion(key, OVERRIDE_KEYS)));
            return;
        }
        apply(key, value, key, suffix, sources, draft, problems);
    }

    /** One top-level setting given as text (environment or flag), checked by the same rules as the file. */
    private static void apply(String setting, String value, String label, String suffix, ConfigSources sources,
            ConfigDraft draft, List<Problem> problems) {
        Path base = sources.workingDirectory();
        draft.stateUrlGiven |= setting.equals(ConfigSources.STATE_URL);
        Optional<String> problem = switch (setting) {
            case ConfigSources.BACKEND -> SettingRules.checkBackendName(value.trim());
            case ConfigSources.SPOT -> SettingRules.checkChoice(value.trim(), SettingRules.SPOT_POLICIES);
            case ConfigSources.ZONES -> SettingRules.checkZones(value);
            case ConfigSources.ADVICE_SCHEDULER -> SettingRules.checkChoice(value.trim(), Scheduler.configNames());
            case ConfigSources.REGIONS -> SettingRules.splitRegions(value).stream().map(SettingRules::checkRegion)
                    .flatMap(Optional::stream).findFirst();
            case ConfigSources.STATE_URL -> SettingRules.checkStateUrl(value);
            case ConfigSources.STATE_USER -> SettingRules.checkStateUser(value);
            case ConfigSources.STATE_PASSWORD -> SettingRules.checkPasswordReference(value);
            case ConfigSources.RUNS_POLL_INTERVAL -> SettingRules.checkPollInterval(value);
            case ConfigSources.RUNS_MAX_JOBS -> SettingRules.checkMaxJobs(value);
            case ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS -> SettingRules.checkOnDemandAfterEvictions(value);
            case ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS -> SettingRules.checkNextRegionAfterEvictions(value);
            default -> SettingRules.checkPath(value);
        };
        if (problem.isPresent()) {
            problems.add(Problem.of(label, problem.get() + suffix));
            return;
        }
        switch (setting) {
            case ConfigSources.BACKEND -> draft.backend = value.trim();
            case ConfigSources.SPOT -> draft.defaultSpot = Optional.of(SettingRules.spot(value.trim()));
            case ConfigSources.ZONES -> draft.defaultZones = SettingRules.zones(value);
            case ConfigSources.ADVICE_SCHEDULER -> draft.adviceScheduler = Scheduler.ofConfigName(value.trim());
            case ConfigSources.REGIONS -> draft.defaultRegions = SettingRules.splitRegions(value);
            case ConfigSources.CATALOG_FILE -> draft.catalogFile = Optional.of(SettingRules.resolvePath(value,
                    sources.home(), base));
            case ConfigSources.STATE_URL -> draft.stateUrl = Optional.of(value.trim());
            case ConfigSources.STATE_USER -> draft.stateUser = Optional.of(value.trim());
            case ConfigSources.STATE_PASSWORD -> draft.statePassword = Optional.of(SecretRef.parse(value.trim()));
            case ConfigSources.RUNS_POLL_INTERVAL -> draft.pollInterval = SettingRules.pollInterval(value);
            case ConfigSources.RUNS_MAX_JOBS -> draft.maxJobs = SettingRules.maxJobs(value);
            case ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS ->
                    draft.onDemandAfterEvictions = SettingRules.onDemandAfterEvictions(value);
            case ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS ->
                    draft.nextRegionAfterEvictions = SettingRules.nextRegionAfterEvictions(value);
            default -> draft.stateDirectory = SettingRules.resolvePath(value, sources.home(), base);
        }
    }
}
