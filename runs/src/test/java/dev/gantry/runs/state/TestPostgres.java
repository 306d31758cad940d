package dev.gantry.runs.state;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.StateServer;
import dev.gantry.core.secrets.ReferenceSecretResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The real PostgreSQL server scripts/test-postgres.sh runs on this machine (127.0.0.1, a test role with a password).
 * Started when it is not up; when that is impossible (not root, PostgreSQL not installed) the calling test fails,
 * never skips: run scripts/test-all.sh as root, which installs and starts it.
 */
final class TestPostgres {
    private static final Path STATE = Path.of(System.getenv().getOrDefault("GANTRY_TEST_POSTGRES_DIR",
            "/var/lib/gantry-test-postgres"));

    private final Map<String, String> env;

    private TestPostgres(Map<String, String> env) {
        this.env = env;
    }

    /** The server, started first if needed. */
    static TestPostgres get() {
        Map<String, String> env = read();
        if (env.isEmpty() || !new TestPostgres(env).accepts()) {
            script("up");
            env = read();
            if (env.isEmpty() || !new TestPostgres(env).accepts()) {
                fail("scripts/test-postgres.sh up ran but the server at " + env.get("URL") + " refuses the test "
                        + "role; see " + STATE.resolve("run/server.log"));
            }
        }
        return new TestPostgres(env);
    }

    String url() {
        return value("URL");
    }

    String user() {
        return value("USER");
    }

    /** The test role's password, as Gantry's users give it: a reference to the file that holds it. */
    SecretRef password() {
        return SecretRef.parse("file:" + value("PASSWORD_FILE"));
    }

    /** Resolves references the way Gantry does (environment, files; no Key Vault here). */
    static SecretResolver secrets() {
        return new ReferenceSecretResolver(Map.of(), Path.of("."), ref -> {
            throw new AssertionError("no Key Vault in these tests: " + ref);
        });
    }

    /** A schema of the test's own, so tests never see each other's rows; dropped with everything in it. */
    Schema newSchema() {
        String name = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        execute("CREATE SCHEMA " + name);
        return new Schema(name);
    }

    /** One test's schema: a configuration and URLs that use it. */
    final class Schema implements AutoCloseable {
        private final String name;

        private Schema(String name) {
            this.name = name;
        }

        String name() {
            return name;
        }

        /**
         * The URL of this schema; connections opened with it carry the schema's name as their application name,
         * so that a test can find (and drop) exactly its own.
         */
        String url() {
            return TestPostgres.this.url() + "?currentSchema=" + name + "&ApplicationName=" + name;
        }

        /** Gantry's configuration for a state database in this schema, with {@code stateDirectory} beside it. */
        GantryConfig config(Path stateDirectory) {
            return GantryConfig.defaults(stateDirectory).withStateDirectory(stateDirectory)
                    .withStateServer(new StateServer(url(), Optional.of(user()), Optional.of(password())));
        }

        /** Ends every connection opened with this schema's URL, as a server restart or a network cut would. */
        int dropConnections() {
            try (Connection connection = connect();
                 PreparedStatement drop = connection.prepareStatement("SELECT count(pg_terminate_backend(pid)) "
                         + "FROM pg_stat_activity WHERE application_name = ?")) {
                drop.setString(1, name);
                try (var rows = drop.executeQuery()) {
                    rows.next();
                    return rows.getInt(1);
                }
            } catch (SQLException e) {
                return fail("cannot drop the connections of " + name + ": " + e);
            }
        }

        @Override
        public void close() {
            execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }

    /** A connection as the test role to the test database (its own schema: public). */
    Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        properties.setProperty("password", secrets().resolve(password()).reveal());
        return DriverManager.getConnection(url(), properties);
    }

    void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            fail("the test server refused " + sql + ": " + e);
        }
    }

    private boolean accepts() {
        try (Connection connection = connect()) {
            return connection.isValid(5);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private String value(String key) {
        String value = env.get(key);
        if (value == null) {
            fail(STATE.resolve("postgres.env") + " has no " + key);
        }
        return value;
    }

    private static Map<String, String> read() {
        Map<String, String> env = new LinkedHashMap<>();
        Path file = STATE.resolve("postgres.env");
        if (!Files.isReadable(file)) {
            return env;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (!line.startsWith("#") && eq > 0) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            fail("cannot read " + file + ": " + e);
        }
        return env;
    }

    private static void script(String... args) {
        Path script = findScript();
        List<String> command = new java.util.ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("scripts/test-postgres.sh " + String.join(" ", args) + " did not finish within 120 s");
            }
            if (process.exitValue() != 0) {
                fail("scripts/test-postgres.sh " + String.join(" ", args) + " failed (exit " + process.exitValue()
                        + "): " + new String(output, StandardCharsets.UTF_8).strip() + "\nThe PostgreSQL tests need "
                        + "the real test server: run scripts/test-all.sh as root (it installs PostgreSQL and "
                        + "starts it).");
            }
        } catch (IOException e) {
            fail("scripts/test-postgres.sh could not run: " + e + "; run scripts/test-all.sh as root");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while starting the PostgreSQL test server");
        }
    }

    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/test-postgres.sh");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        return fail("scripts/test-postgres.sh not found above " + Path.of("").toAbsolutePath());
    }
}
