package dev.gantry.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path root;
    Path home;
    Path work;
    final ConfigLoader loader = new ConfigLoader();

    @BeforeEach
    void dirs() throws IOException {
        home = Files.createDirectories(root.resolve("home"));
        work = Files.createDirectories(root.resolve("work"));
    }

    private ConfigSources sources(Optional<Path> explicit, Map<String, String> env, Map<String, String> overrides) {
        return new ConfigSources(explicit, env, work, home, overrides);
    }

    private GantryConfig load(Map<String, String> env, Map<String, String> overrides) {
        return loader.load(sources(Optional.empty(), env, overrides));
    }

    private static List<String> lines(GantryException e) {
        return e.problems().stream().map(Problem::toString).collect(Collectors.toList());
    }

    @Test
    void noFileGivesTheBuiltInDefaults() {
        GantryConfig config = load(Map.of(), Map.of());

        assertEquals(GantryConfig.defaults(home), config);
        assertEquals("manual", config.backend());
        // No settings: the manual backend's own defaults (its local transport) apply; core spells none of them.
        assertEquals(BackendConfig.empty("manual"), config.backendConfig("manual"));
        assertEquals(BackendConfig.empty("aks"), config.backendConfig("aks"));
        assertEquals(home.resolve(".gantry/state"), config.stateDirectory());
        assertEquals(GantryConfig.BUILT_IN, config.source());
    }

    @Test
    void readsTheDocumentedFileShape() throws IOException {
        Path file = Files.copy(Path.of("src/test/resources/config/full.yaml"), work.resolve("gantry.yaml"));

        GantryConfig config = load(Map.of(), Map.of());

        assertEquals("cyclecloud", config.backend());
        assertEquals(Map.of("transport", "ssh", "hosts[0].address", "10.0.0.4", "hosts[0].port", "22",
                "hosts[1].address", "10.0.0.5", "hosts[1].port", "2222"), config.backends().get("manual"));
        assertEquals(Map.of("url", "https://cc.example.com", "cluster", "gpu", "password", "env:CC_PASSWORD",
                "partitions[0]", "hpc", "partitions[1]", "gpu", "ssh.keyFile", "~/.ssh/id_ed25519"),
                config.backends().get("cyclecloud"));
        assertEquals(List.of("eastus", "westus2"), config.defaultRegions());
        assertEquals(Optional.of(SpotPolicy.ALLOWED), config.defaultSpot());
        assertEquals(Map.of("eastus", List.of("1", "2"), "westus2", List.of("3")), config.defaultZones());
        assertEquals(Optional.of(Scheduler.SLURM), config.adviceScheduler());
        assertEquals(Optional.of(work.resolve("my-catalog.csv")), config.catalogFile());
        assertEquals(home.resolve(".gantry/jobs"), config.stateDirectory());
        assertEquals(Optional.of(new StateServer("jdbc:postgresql://db.example.com:5432/gantry", Optional.of("gantry"),
                Optional.of(SecretRef.parse("env:GANTRY_STATE_PASSWORD")))), config.stateServer());
        assertEquals(new RunSettings(Duration.ofSeconds(2), 5, 2), config.runs());
        assertEquals(file.toString(), config.source());
    }

    @Test
    void backendSettingsKnowWhereTheFileHasThemAndAnOverrideForgetsIt() throws IOException {
        Path file = Files.copy(Path.of("src/test/resources/config/full.yaml"), work.resolve("gantry.yaml"));

        BackendConfig manual = load(Map.of(), Map.of()).backendConfig("manual");
        assertEquals(Optional.of(new SourceLocation(file.toString(), 10, 35)), manual.locationOf("hosts[1].port"));
        assertEquals(Optional.of(new SourceLocation(file.toString(), 7, 16)), manual.locationOf("transport"));
        GantryException e = assertThrows(GantryException.class, () -> manual.getChoice("transport", "local",
                List.of("local")));
        assertEquals(file + ":7:16: backends.manual.transport: must be one of local, got 'ssh'", e.getMessage());

        BackendConfig overridden = load(Map.of("GANTRY_BACKENDS_MANUAL_TRANSPORT", "local"),
                Map.of("backends.manual.hosts[1].port", "2200")).backendConfig("manual");
        assertEquals(Optional.empty(), overridden.locationOf("transport"), "the environment's value has no line");
        assertEquals(Optional.empty(), overridden.locationOf("hosts[1].port"), "nor has the flag's");
        assertEquals(Optional.of(new SourceLocation(file.toString(), 10, 19)), overridden.locationOf(
                "hosts[1].address"));
    }

    @Test
    void aKeyNobodyWroteIsLocatedAtTheMappingThatShouldHoldIt() throws IOException {
        Path file = Files.copy(Path.of("src/test/resources/config/full.yaml"), work.resolve("gantry.yaml"));
        BackendConfig manual = load(Map.of(), Map.of()).backendConfig("manual");
        assertEquals(file + ":9:9: backends.manual.hosts[0].identityFile: is required",
                manual.problem("hosts[0].identityFile", "is required").toString());
        assertEquals(file + ":7:5: backends.manual.masterPort: is required",
                manual.problem("masterPort", "is required").toString());
        assertEquals(Optional.of(new SourceLocation(file.toString(), 9, 9)),
                manual.subset("hosts[0]").problem("user", "is required").location());
    }

    @Test
    void lookupOrderIsExplicitThenWorkingDirectoryThenHome() throws IOException {
        Files.createDirectories(home.resolve(".gantry"));
        Files.writeString(home.resolve(".gantry/config.yaml"), "backend: aks\n");
        assertEquals("aks", load(Map.of(), Map.of()).backend());

        Files.writeString(work.resolve("gantry.yaml"), "backend: batch\n");
        assertEquals("batch", load(Map.of(), Map.of()).backend());

        Files.writeString(work.resolve("other.yaml"), "backend: cyclecloud\n");
        GantryConfig explicit = loader.load(sources(Optional.of(Path.of("other.yaml")), Map.of(), Map.of()));
        assertEquals("cyclecloud", explicit.backend());
        assertEquals("other.yaml", explicit.source());
    }

    @Test
    void aFileReplacesTheBuiltInBackendSettings() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\n");

        assertEquals(BackendConfig.empty("manual"), load(Map.of(), Map.of()).backendConfig("manual"));
    }

    @Test
    void anEmptyFileMeansAllDefaults() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "# nothing yet\n");

        GantryConfig config = load(Map.of(), Map.of());

        assertEquals("manual", config.backend());
        assertEquals(home.resolve(".gantry/state"), config.stateDirectory());
    }

    @Test
    void explicitFileMustExist() {
        GantryException e = assertThrows(GantryException.class,
                () -> loader.load(sources(Optional.of(Path.of("missing.yaml")), Map.of(), Map.of())));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("configuration file missing.yaml (given with --config) does not exist", e.getMessage());
    }

    @Test
    void environmentOverridesTheFileAndFlagsOverrideBoth() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "backend: batch\ndefaults: {spot: never}\n"
                + "backends:\n  cyclecloud:\n    resource_group: rg-file\n");
        Map<String, String> env = Map.of(
                "GANTRY_BACKEND", "aks",
                "GANTRY_SPOT", "preferred",
                "GANTRY_REGIONS", "eastus, westeurope",
                "GANTRY_STATE_DIR", "~/state",
                "GANTRY_CATALOG", "cat.csv",
                "GANTRY_ADVICE_SCHEDULER", "pbs",
                "GANTRY_BACKENDS_CYCLECLOUD_RESOURCE_GROUP", "rg-env",
                "GANTRY_BACKENDS_MANUAL_HOSTS__0__ADDRESS", "10.1.1.1",
                "GANTRY_BACKENDS_MANUAL_SSH__KEY_FILE", "/k",
                "GANTRY_CHECKPOINT_DIR", "/not/configuration");

        GantryConfig fromEnv = load(env, Map.of());

        assertEquals("aks", fromEnv.backend());
        assertEquals(Optional.of(SpotPolicy.PREFERRED), fromEnv.defaultSpot());
        assertEquals(List.of("eastus", "westeurope"), fromEnv.defaultRegions());
        assertEquals(home.resolve("state"), fromEnv.stateDirectory());
        assertEquals(Optional.of(work.resolve("cat.csv")), fromEnv.catalogFile());
        assertEquals(Optional.of(Scheduler.PBS), fromEnv.adviceScheduler());
        assertEquals(Map.of("resource_group", "rg-env"), fromEnv.backends().get("cyclecloud"));
        assertEquals(Map.of("hosts[0].address", "10.1.1.1", "ssh.keyFile", "/k"), fromEnv.backends().get("manual"));

        GantryConfig fromFlags = load(env, Map.of(ConfigSources.BACKEND, "cyclecloud", ConfigSources.SPOT, "never",
                "backends.cyclecloud.resource_group", "rg-flag", ConfigSources.STATE_DIR, "/srv/state"));

        assertEquals("cyclecloud", fromFlags.backend());
        assertEquals(Optional.of(SpotPolicy.NEVER), fromFlags.defaultSpot());
        assertEquals("rg-flag", fromFlags.backendConfig("cyclecloud").require("resource_group"));
        assertEquals(Path.of("/srv/state"), fromFlags.stateDirectory());
    }

    @Test
    void defaultZonesAreReadPerRegionAndCheckedAsAWorkloadsEachProblemAtItsLine() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                defaults:
                  regions: [eastus]
                  zones:
                    eastus: [1, "2"]
                    westus2: [3]
                """);
        GantryConfig config = load(Map.of(), Map.of());
        assertEquals(Map.of("eastus", List.of("1", "2"), "westus2", List.of("3")), config.defaultZones(),
                "a region need not be among defaults.regions: the zones apply wherever a workload is planned");
        assertEquals(List.of("eastus", "westus2"), List.copyOf(config.defaultZones().keySet()), "in the order written");

        Files.writeString(work.resolve("gantry.yaml"), """
                defaults:
                  zones:
                    eastus: [1, 4, 1]
                    West US: [2]
                    westus2: []
                    westus3: 2
                """);
        GantryException e = assertThrows(GantryException.class, () -> load(Map.of(), Map.of()));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        String file = work.resolve("gantry.yaml").toString();
        assertEquals(List.of(
                file + ":3:17: defaults.zones.eastus[1]: must be an availability zone 1, 2, 3, got '4'",
                file + ":3:20: defaults.zones.eastus[2]: zone '1' is listed twice",
                file + ":4:5: defaults.zones.West US: must be keyed by an Azure region name such as eastus or westus2, "
                        + "got 'West US'",
                file + ":5:5: defaults.zones.westus2: must list the zones allowed in westus2, one or more of [1, 2, 3]; "
                        + "remove the entry to allow any zone",
                file + ":6:5: defaults.zones.westus3: must be a list of zones 1, 2 or 3, got 2"), lines(e));

        Files.writeString(work.resolve("gantry.yaml"), "defaults: {zones: [1, 2]}\nzones: {eastus: [1]}\n");
        GantryException shape = assertThrows(GantryException.class, () -> load(Map.of(), Map.of()));
        assertEquals(List.of(
                file + ":1:12: defaults.zones: must be a mapping of region names to lists of zones, e.g. "
                        + "{eastus: [1, 2]}, got a list",
                file + ":2:1: zones: 'zones' is not a field here; it belongs under defaults"), lines(shape));
    }

    @Test
    void defaultZonesFromTheEnvironmentAndFlagsReplaceTheFilesAndAreCheckedTheSameWay() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "defaults: {zones: {eastus: [1]}}\n");
        GantryConfig fromEnv = load(Map.of("GANTRY_ZONES", "westus2=1, 2; eastus = 3"), Map.of());
        assertEquals(Map.of("westus2", List.of("1", "2"), "eastus", List.of("3")), fromEnv.defaultZones());
        GantryConfig fromFlag = load(Map.of("GANTRY_ZONES", "westus2=1"), Map.of(ConfigSources.ZONES, "centralus=2"));
        assertEquals(Map.of("centralus", List.of("2")), fromFlag.defaultZones());
        assertEquals(Map.of(), load(Map.of("GANTRY_ZONES", ""), Map.of()).defaultZones(), "empty: no zones asked");

        GantryException e = assertThrows(GantryException.class, () -> load(Map.of("GANTRY_ZONES", "eastus=1,4"),
                Map.of(ConfigSources.ZONES, "eastus:1")));
        assertEquals(List.of(
                "GANTRY_ZONES: defaults.zones.eastus[1]: must be an availability zone 1, 2, 3, got '4'",
                "defaults.zones: must be REGION=ZONE[,ZONE...] per region, separated by ';', such as "
                        + "eastus=1,2;westus2=3, got 'eastus:1' (given on the command line)"), lines(e));
        GantryException twice = assertThrows(GantryException.class, () -> load(Map.of("GANTRY_ZONES",
                "eastus=1;eastus=2"), Map.of()));
        assertEquals(List.of("GANTRY_ZONES: region 'eastus' is given twice; give each region's zones once, e.g. "
                + "eastus=1,2;westus2=3"), lines(twice));
    }

    @Test
    void camelCaseKeysFromTheEnvironment() {
        assertEquals("resourceGroup", EnvironmentKeys.settingKey("RESOURCE_GROUP", List.of()));
        assertEquals("ssh.keyFile", EnvironmentKeys.settingKey("SSH__KEY_FILE", List.of()));
        assertEquals("hosts[0].address", EnvironmentKeys.settingKey("HOSTS__0__ADDRESS", List.of()));
        assertEquals("resource-group", EnvironmentKeys.settingKey("RESOURCE_GROUP", List.of("resource-group")));
    }

    @Test
    void badEnvironmentAndFlagValuesAreAllReported() {
        GantryException e = assertThrows(GantryException.class, () -> load(
                Map.of("GANTRY_SPOT", "sometimes", "GANTRY_BACKENDS_MANUAL", "x", "GANTRY_REGIONS", "East US"),
                Map.of("advice.scheduler", "slrum", "bakend", "aks")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "GANTRY_BACKENDS_MANUAL: names no backend setting; use GANTRY_BACKENDS_<BACKEND>_<KEY>, e.g. "
                        + "GANTRY_BACKENDS_MANUAL_TRANSPORT=local",
                "GANTRY_REGIONS: must be an Azure region name such as eastus or westus2, got 'East US'",
                "GANTRY_SPOT: must be one of never, allowed, preferred, got 'sometimes'",
                "advice.scheduler: must be one of slurm, gridengine, pbs, got 'slrum'; did you mean 'slurm'? "
                        + "(given on the command line)",
                "bakend: is not a configuration setting; settings are backend, defaults.regions, defaults.spot, "
                        + "defaults.zones, advice.scheduler, catalog.file, state.dir, state.url, state.user, state.password, "
                        + "runs.pollInterval, runs.maxJobs, spot.onDemandAfterEvictions, spot.nextRegionAfterEvictions and "
                        + "backends.<backend>.<key>; did you mean 'backend'?"), lines(e));
    }

    /** Moved from OrchestratorAdviceTest: the advice's settings now take a {@link Scheduler}, named where it is read. */
    @Test
    void anUnknownSchedulerIsAConfigurationError() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                advice:
                  scheduler: lsf
                """);
        GantryException e = assertThrows(GantryException.class, () -> load(Map.of(), Map.of()));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("advice.scheduler", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("got 'lsf'"));
    }

    @Test
    void aStateServerIsReadFromTheFileAndTheEnvironmentWins() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                state:
                  url: jdbc:postgresql://db.internal:5432/gantry?sslmode=verify-full
                  user: gantry
                  password: file:~/.gantry/state-password
                """);
        GantryConfig fromFile = load(Map.of(), Map.of());
        assertEquals(Optional.of(new StateServer("jdbc:postgresql://db.internal:5432/gantry?sslmode=verify-full",
                Optional.of("gantry"), Optional.of(SecretRef.parse("file:~/.gantry/state-password")))),
                fromFile.stateServer());
        assertEquals(home.resolve(".gantry/state"), fromFile.stateDirectory(), "backends keep their state here");

        GantryConfig fromEnv = load(Map.of("GANTRY_STATE_URL", "jdbc:postgresql://other/gantry",
                "GANTRY_STATE_PASSWORD", "env:PGPASSWORD"), Map.of());
        assertEquals(Optional.of(new StateServer("jdbc:postgresql://other/gantry", Optional.of("gantry"),
                Optional.of(SecretRef.parse("env:PGPASSWORD")))), fromEnv.stateServer());
        assertTrue(fromEnv.toString().contains("stateServer=Optional[jdbc:postgresql://other/gantry as gantry "
                + "(password env:PGPASSWORD)]"), fromEnv.toString());
        assertEquals(Optional.empty(), GantryConfig.defaults(home).stateServer(), "SQLite unless a server is set");
    }

    @Test
    void aPasswordThatIsNoReferenceIsRefusedAndNeverEchoed() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                state:
                  url: jdbc:postgresql://db/gantry?user=g&password=hunter2
                  password: hunter2
                """);
        GantryException e = assertThrows(GantryException.class, () -> load(Map.of(), Map.of()));
        String file = work.resolve("gantry.yaml").toString();
        assertEquals(List.of(
                file + ":2:3: state.url: must not hold a password; give it as state.password, a secret reference "
                        + "such as env:GANTRY_STATE_PASSWORD or file:~/.gantry/state-password",
                file + ":3:3: state.password: must be a secret reference, env:NAME, file:PATH or "
                        + "https://VAULT.vault.azure.net/secrets/NAME, not the password itself (the value given is "
                        + "not shown)"), lines(e));
        assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void stateServerValuesAreCheckedInEveryLayer() {
        GantryException e = assertThrows(GantryException.class, () -> load(Map.of(
                "GANTRY_STATE_URL", "jdbc:sqlite:/tmp/state.db", "GANTRY_STATE_PASSWORD", "env:9bad"),
                Map.of(ConfigSources.STATE_USER, " ")));
        assertEquals(List.of(
                "GANTRY_STATE_PASSWORD: env: needs a variable name of letters, digits and '_', got 'env:9bad'",
                "GANTRY_STATE_URL: must be a PostgreSQL JDBC URL, jdbc:postgresql://HOST[:PORT]/DATABASE, got "
                        + "'jdbc:sqlite:/tmp/state.db'; the SQLite database is the file state.db in state.dir: set "
                        + "state.dir instead",
                "state.user: must be the name of a database role, got ' ' (given on the command line)"), lines(e));
        GantryException noDatabase = assertThrows(GantryException.class, () -> load(Map.of(
                "GANTRY_STATE_URL", "jdbc:postgresql://db:5432/"), Map.of()));
        assertEquals(List.of("GANTRY_STATE_URL: must be a PostgreSQL JDBC URL, jdbc:postgresql://HOST[:PORT]/DATABASE, "
                + "got 'jdbc:postgresql://db:5432/'"), lines(noDatabase));
    }

    @Test
    void loginSettingsWithoutAServerAreAnError() {
        GantryException e = assertThrows(GantryException.class, () -> load(Map.of("GANTRY_STATE_USER", "gantry"),
                Map.of()));
        assertEquals(List.of("state.user: is set but state.url is not: they log in to a PostgreSQL state server; "
                + "set state.url (GANTRY_STATE_URL) to its JDBC URL, or remove them to keep the SQLite database in "
                + "state.dir"), lines(e));
    }

    @Test
    void fileProblemsAndEnvironmentProblemsComeTogether() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\ndefaults:\n  spot: sometimes\n");

        GantryException e = assertThrows(GantryException.class, () -> load(Map.of("GANTRY_BACKEND", "Bad!"),
                Map.of()));

        String file = work.resolve("gantry.yaml").toString();
        assertEquals(List.of(file + ":3:3: defaults.spot: must be one of never, allowed, preferred, got 'sometimes'",
                "GANTRY_BACKEND: must be a backend name of lower-case letters, digits and '-' (such as manual, "
                        + "cyclecloud, batch or aks), got 'Bad!'"), lines(e));
    }

    @Test
    void validateChecksOneFile() throws IOException {
        Path good = Path.of("src/test/resources/config/full.yaml");
        assertEquals(List.of(), loader.validate(good));
        Path bad = Files.writeString(work.resolve("bad.yaml"), "backend: manual\nstat: {dir: /x}\n");
        assertEquals(List.of(bad + ":2:1: stat: unknown field 'stat'; did you mean 'state'?"),
                loader.validate(bad).stream().map(Problem::toString).collect(Collectors.toList()));
    }

    @Test
    void toStringShowsKeysNotValues() {
        GantryConfig config = GantryConfig.defaults(home).withBackendSettings("aks", Map.of("token", "s3cret"));

        assertTrue(config.toString().contains("aks[token]"));
        assertTrue(!config.toString().contains("s3cret"));
        assertEquals("aks", config.withBackend("aks").selectedBackendConfig().backend());
    }

    // ---- runs.pollInterval, runs.maxJobs, spot.onDemandAfterEvictions and spot.nextRegionAfterEvictions ----

    @Test
    void runSettingsDefaultToFiveSecondsThreeEvictionsAndNoMoveToAnotherRegion() throws IOException {
        assertEquals(new RunSettings(Duration.ofSeconds(5), 3, 0), RunSettings.DEFAULT);
        assertEquals(0, RunSettings.DEFAULT_NEXT_REGION_AFTER_EVICTIONS, "opt-in: a checkpoint may live in one region");
        assertEquals(0, load(Map.of(), Map.of()).runs().nextRegionAfterEvictions());
        assertEquals(RunSettings.DEFAULT, GantryConfig.defaults(home).runs());
        assertEquals(RunSettings.DEFAULT, load(Map.of(), Map.of()).runs());
        assertEquals(RunSettings.DEFAULT, new GantryConfig("manual", Map.of(), List.of(), Optional.empty(),
                Optional.empty(), Optional.empty(), home, "test").runs(), "the short constructor keeps the defaults");
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\nruns: {}\nspot: {}\n");
        assertEquals(RunSettings.DEFAULT, load(Map.of(), Map.of()).runs(), "empty sections keep the defaults");
    }

    @Test
    void runSettingsAreReadFromTheFile() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                defaults:
                  spot: allowed
                runs:
                  pollInterval: 2s
                spot:
                  onDemandAfterEvictions: 5
                  nextRegionAfterEvictions: 2
                """);

        GantryConfig config = load(Map.of(), Map.of());

        assertEquals(new RunSettings(Duration.ofSeconds(2), 5, 2), config.runs());
        assertEquals(Optional.of(SpotPolicy.ALLOWED), config.defaultSpot(), "defaults.spot is another setting");
        assertEquals(List.of(), loader.validate(work.resolve("gantry.yaml")));
        assertEquals(new RunSettings(Duration.ofHours(1), 0, 0), configFrom("runs: {pollInterval: 1h}\n"
                + "spot: {onDemandAfterEvictions: 0, nextRegionAfterEvictions: 0}\n").runs(), "both ends: 1h and 0");
        assertEquals(new RunSettings(Duration.ofSeconds(90), 100, 100), configFrom("runs: {pollInterval: 1m30s}\n"
                + "spot: {onDemandAfterEvictions: '100', nextRegionAfterEvictions: 100}\n").runs());
        assertEquals(new RunSettings(Duration.ofSeconds(5), 3, 1), configFrom(
                "spot: {nextRegionAfterEvictions: '1'}\n").runs(), "the other settings keep their defaults");
    }

    private GantryConfig configFrom(String yaml) throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), yaml);
        return load(Map.of(), Map.of());
    }

    @Test
    void runSettingsComeFromTheEnvironmentOverTheFile() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), "runs: {pollInterval: 2s}\n"
                + "spot: {onDemandAfterEvictions: 5, nextRegionAfterEvictions: 4}\n");

        GantryConfig config = load(Map.of("GANTRY_RUNS_POLL_INTERVAL", "1m", "GANTRY_SPOT_ON_DEMAND_AFTER_EVICTIONS",
                " 0 ", "GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", " 2 "), Map.of());

        assertEquals(new RunSettings(Duration.ofMinutes(1), 0, 2), config.runs());
        assertEquals(new RunSettings(Duration.ofSeconds(2), 5, 0), load(Map.of(
                "GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", "0"), Map.of()).runs(), "0 from the environment wins too");
        assertEquals(Optional.empty(), config.defaultSpot(), "GANTRY_SPOT is a different variable");
    }

    @Test
    void maxJobsIsReadFromEveryLayerAndZeroOrLessIsRefusedWithTheFix() throws IOException {
        assertEquals(RunSettings.DEFAULT_MAX_JOBS, load(Map.of(), Map.of()).runs().maxJobs());
        assertEquals(200_000, load(Map.of("GANTRY_RUNS_MAX_JOBS", "200000"), Map.of()).runs().maxJobs());
        assertEquals(5, load(Map.of("GANTRY_RUNS_MAX_JOBS", "200000"), Map.of(ConfigSources.RUNS_MAX_JOBS, "5"))
                .runs().maxJobs());
        for (String bad : List.of("0", "-3", "lots")) {
            GantryException e = assertThrows(GantryException.class,
                    () -> load(Map.of(), Map.of(ConfigSources.RUNS_MAX_JOBS, bad)));
            assertEquals(ErrorCode.CONFIG_INVALID, e.code());
            assertTrue(e.getMessage().contains("runs.maxJobs: must be a whole number of 1 or more, got '" + bad
                    + "'; it is the most jobs one workflow may expand to"), e.getMessage());
        }
        GantryException record = assertThrows(GantryException.class, () -> RunSettings.DEFAULT.withMaxJobs(0));
        assertTrue(record.getMessage().contains("runs.maxJobs"), record.getMessage());
    }

    @Test
    void runSettingsFromFlagsWinOverTheEnvironment() throws IOException {
        GantryConfig config = load(Map.of("GANTRY_RUNS_POLL_INTERVAL", "1m", "GANTRY_SPOT_ON_DEMAND_AFTER_EVICTIONS",
                "7", "GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", "3"), Map.of(ConfigSources.RUNS_POLL_INTERVAL, "30s",
                ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS, "100", ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS,
                "1"));

        assertEquals(new RunSettings(Duration.ofSeconds(30), 100, 1), config.runs());
        assertEquals("runs.pollInterval", ConfigSources.RUNS_POLL_INTERVAL);
        assertEquals("spot.onDemandAfterEvictions", ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS);
        assertEquals("spot.nextRegionAfterEvictions", ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS);
        assertTrue(config.toString().contains("runs=RunSettings[pollInterval=30s, onDemandAfterEvictions=100, "
                + "nextRegionAfterEvictions=1, maxJobs=10000]"), config.toString());

        // Every layer at once: the flag wins over the environment, which wins over the file.
        Files.writeString(work.resolve("gantry.yaml"), "spot: {nextRegionAfterEvictions: 4}\n");
        assertEquals(4, load(Map.of(), Map.of()).runs().nextRegionAfterEvictions(), "the file");
        assertEquals(3, load(Map.of("GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", "3"), Map.of()).runs()
                .nextRegionAfterEvictions(), "the environment over the file");
        assertEquals(0, load(Map.of("GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", "3"),
                Map.of(ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS, " 0 ")).runs().nextRegionAfterEvictions(),
                "the flag over both");
    }

    @Test
    void aBadPollIntervalIsReportedInEveryLayer() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                runs:
                  pollInterval: 500ms
                """);
        String file = work.resolve("gantry.yaml").toString();

        GantryException e = assertThrows(GantryException.class, () -> load(
                Map.of("GANTRY_RUNS_POLL_INTERVAL", "5"), Map.of(ConfigSources.RUNS_POLL_INTERVAL, "2h")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                file + ":2:3: runs.pollInterval: must be a duration from 1s to 1h such as 5s, 30s or 1m, got '500ms'; "
                        + "durations are whole seconds, the shortest is 1s",
                "GANTRY_RUNS_POLL_INTERVAL: must be a duration from 1s to 1h such as 5s, 30s or 1m, got '5'; add a "
                        + "unit, e.g. 5s",
                "runs.pollInterval: must be from 1s to 1h, got '2h'; a run's driver looks at its jobs once per "
                        + "interval (default 5s) (given on the command line)"), lines(e));

        Files.writeString(work.resolve("gantry.yaml"), "runs:\n  pollInterval: 0s\n");
        assertEquals(List.of(file + ":2:3: runs.pollInterval: must be from 1s to 1h, got '0s'; a run's driver looks "
                + "at its jobs once per interval (default 5s)"), lines(assertThrows(GantryException.class,
                () -> load(Map.of(), Map.of()))));
        Files.writeString(work.resolve("gantry.yaml"), "runs:\n  pollInterval: [5s]\n");
        assertEquals(List.of(file + ":2:3: runs.pollInterval: must be a duration from 1s to 1h such as 5s, 30s or "
                + "1m, got a list"), lines(assertThrows(GantryException.class, () -> load(Map.of(), Map.of()))));
    }

    @Test
    void aNegativeOrTooLargeEvictionCountIsReportedInEveryLayer() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                spot:
                  onDemandAfterEvictions: -1
                """);
        String file = work.resolve("gantry.yaml").toString();
        String rest = "; it counts a step's Spot evictions before its next attempt goes on on-demand capacity "
                + "(0: never, default 3)";

        GantryException e = assertThrows(GantryException.class, () -> load(
                Map.of("GANTRY_SPOT_ON_DEMAND_AFTER_EVICTIONS", "101"),
                Map.of(ConfigSources.SPOT_ON_DEMAND_AFTER_EVICTIONS, "two")));

        assertEquals(List.of(
                file + ":2:3: spot.onDemandAfterEvictions: must be a whole number from 0 to 100, got '-1'" + rest,
                "GANTRY_SPOT_ON_DEMAND_AFTER_EVICTIONS: must be a whole number from 0 to 100, got '101'" + rest,
                "spot.onDemandAfterEvictions: must be a whole number from 0 to 100, got 'two'" + rest
                        + " (given on the command line)"), lines(e));

        Files.writeString(work.resolve("gantry.yaml"), "spot:\n  onDemandAfterEvictions: 2.5\n");
        assertEquals(List.of(file + ":2:3: spot.onDemandAfterEvictions: must be a whole number from 0 to 100, got "
                + "'2.5'" + rest), lines(assertThrows(GantryException.class, () -> load(Map.of(), Map.of()))));
    }

    @Test
    void aNegativeOrTooLargeRegionEvictionCountIsReportedInEveryLayer() throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), """
                spot:
                  onDemandAfterEvictions: 2
                  nextRegionAfterEvictions: 101
                """);
        String file = work.resolve("gantry.yaml").toString();
        String rest = "; it counts a step's Spot evictions in one region before its next attempt goes to the next "
                + "allowed region (0: never, default 0)";

        GantryException e = assertThrows(GantryException.class, () -> load(
                Map.of("GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS", "-1"),
                Map.of(ConfigSources.SPOT_NEXT_REGION_AFTER_EVICTIONS, "one")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                file + ":3:3: spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got '101'" + rest,
                "GANTRY_SPOT_NEXT_REGION_AFTER_EVICTIONS: must be a whole number from 0 to 100, got '-1'" + rest,
                "spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got 'one'" + rest
                        + " (given on the command line)"), lines(e));

        Files.writeString(work.resolve("gantry.yaml"), "spot:\n  nextRegionAfterEvictions: 1.5\n");
        assertEquals(List.of(file + ":2:3: spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got "
                + "'1.5'" + rest), lines(assertThrows(GantryException.class, () -> load(Map.of(), Map.of()))));
        Files.writeString(work.resolve("gantry.yaml"), "spot:\n  nextRegionAfterEvictions: [2]\n");
        assertEquals(List.of(file + ":2:3: spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got "
                + "a list"), lines(assertThrows(GantryException.class, () -> load(Map.of(), Map.of()))));
        Files.writeString(work.resolve("gantry.yaml"), """
                spot:
                  onDemandAfterEvictions: -1
                  nextRegionAfterEvictions: -1
                """);
        assertEquals(List.of(
                file + ":2:3: spot.onDemandAfterEvictions: must be a whole number from 0 to 100, got '-1'; it counts "
                        + "a step's Spot evictions before its next attempt goes on on-demand capacity (0: never, "
                        + "default 3)",
                file + ":3:3: spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got '-1'" + rest),
                lines(assertThrows(GantryException.class, () -> load(Map.of(), Map.of()))), "both, each at its line");
    }

    @Test
    void unknownKeysInTheNewSectionsAreReportedWithASuggestion() throws IOException {
        Path file = Files.writeString(work.resolve("gantry.yaml"), """
                runs:
                  pollIntervall: 2s
                spot:
                  onDemandAfterEviction: 2
                  nextRegionAfterEviction: 1
                pollInterval: 9s
                nextRegionAfterEvictions: 2
                """);

        assertEquals(List.of(
                file + ":2:3: runs.pollIntervall: unknown field 'pollIntervall'; did you mean 'pollInterval'?",
                file + ":4:3: spot.onDemandAfterEviction: unknown field 'onDemandAfterEviction'; did you mean "
                        + "'onDemandAfterEvictions'?",
                file + ":5:3: spot.nextRegionAfterEviction: unknown field 'nextRegionAfterEviction'; did you mean "
                        + "'nextRegionAfterEvictions'?",
                file + ":6:1: pollInterval: 'pollInterval' is not a field here; it belongs under runs",
                file + ":7:1: nextRegionAfterEvictions: 'nextRegionAfterEvictions' is not a field here; it belongs "
                        + "under spot"),
                loader.validate(file).stream().map(Problem::toString).collect(Collectors.toList()));

        Files.delete(file);
        GantryException flag = assertThrows(GantryException.class, () -> load(Map.of(),
                Map.of("runs.pollIntervl", "2s")));
        assertEquals(List.of("runs.pollIntervl: is not a configuration setting; settings are backend, "
                + "defaults.regions, defaults.spot, defaults.zones, advice.scheduler, catalog.file, state.dir, state.url, "
                + "state.user, state.password, runs.pollInterval, runs.maxJobs, spot.onDemandAfterEvictions, spot.nextRegionAfterEvictions and "
                + "backends.<backend>.<key>; did you mean 'runs.pollInterval'?"), lines(flag));
        GantryException region = assertThrows(GantryException.class, () -> load(Map.of(),
                Map.of("spot.nextRegionAfterEviction", "2")));
        assertTrue(lines(region).get(0).endsWith("; did you mean 'spot.nextRegionAfterEvictions'?"),
                lines(region).toString());
    }

    @Test
    void aSpotPolicyWrittenAtTheTopLevelIsPointedToDefaults() throws IOException {
        Path file = Files.writeString(work.resolve("gantry.yaml"), "spot: allowed\n");

        assertEquals(List.of(file + ":1:1: spot: must be a mapping (fields: onDemandAfterEvictions, "
                + "nextRegionAfterEvictions), got 'allowed'; the spot policy for workloads belongs under defaults: "
                + "defaults: {spot: allowed}"),
                loader.validate(file).stream().map(Problem::toString).collect(Collectors.toList()));
    }

    @Test
    void runSettingsCheckTheirRangesWhenMadeInCode() {
        GantryException e = assertThrows(GantryException.class, () -> new RunSettings(Duration.ofMillis(500), -1,
                101));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "runs.pollInterval: must be from 1s to 1h, got '500ms'; a run's driver looks at its jobs once per "
                        + "interval (default 5s)",
                "spot.onDemandAfterEvictions: must be a whole number from 0 to 100, got '-1'; it counts a step's Spot "
                        + "evictions before its next attempt goes on on-demand capacity (0: never, default 3)",
                "spot.nextRegionAfterEvictions: must be a whole number from 0 to 100, got '101'; it counts a step's "
                        + "Spot evictions in one region before its next attempt goes to the next allowed region (0: "
                        + "never, default 0)"),
                lines(e));
        assertThrows(GantryException.class, () -> RunSettings.DEFAULT.withOnDemandAfterEvictions(101));
        assertThrows(GantryException.class, () -> RunSettings.DEFAULT.withNextRegionAfterEvictions(101));
        assertThrows(GantryException.class, () -> RunSettings.DEFAULT.withNextRegionAfterEvictions(-1));
        assertThrows(GantryException.class, () -> RunSettings.DEFAULT.withPollInterval(Duration.ofMinutes(61)));
        assertEquals(new RunSettings(Duration.ofHours(1), 100, 100), RunSettings.DEFAULT.withPollInterval(
                Duration.ofHours(1)).withOnDemandAfterEvictions(100).withNextRegionAfterEvictions(100));
        assertEquals(new RunSettings(Duration.ofSeconds(7), 0, 2), RunSettings.DEFAULT.withNextRegionAfterEvictions(2)
                .withPollInterval(Duration.ofSeconds(7)).withOnDemandAfterEvictions(0), "each wither keeps the others");

        RunSettings settings = new RunSettings(Duration.ofSeconds(10), 1, 2);
        GantryConfig config = GantryConfig.defaults(work).withRuns(settings);
        assertEquals(settings, config.withBackend("aks").withStateDirectory(work)
                .withCatalogFile(work.resolve("c.csv")).withBackendSettings("aks", Map.of())
                .withStateServer(new StateServer("jdbc:postgresql://db/g", Optional.empty(), Optional.empty()))
                .runs(), "every copy keeps the run settings");
    }
}
