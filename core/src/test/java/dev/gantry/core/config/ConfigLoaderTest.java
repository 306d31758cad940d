package dev.gantry.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertEquals(Optional.of("slurm"), config.adviceScheduler());
        assertEquals(Optional.of(work.resolve("my-catalog.csv")), config.catalogFile());
        assertEquals(home.resolve(".gantry/jobs"), config.stateDirectory());
        assertEquals(Optional.of(new StateServer("jdbc:postgresql://db.example.com:5432/gantry", Optional.of("gantry"),
                Optional.of(SecretRef.parse("env:GANTRY_STATE_PASSWORD")))), config.stateServer());
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
        assertEquals(Optional.of("pbs"), fromEnv.adviceScheduler());
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
                        + "advice.scheduler, catalog.file, state.dir, state.url, state.user, state.password and "
                        + "backends.<backend>.<key>; did you mean 'backend'?"), lines(e));
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
}
