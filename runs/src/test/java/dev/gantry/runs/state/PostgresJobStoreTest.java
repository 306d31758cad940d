package dev.gantry.runs.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.StateServer;
import dev.gantry.runs.jobs.FileJobStore;
import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import dev.gantry.runs.jobs.JobStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The state store on a real PostgreSQL server: the same contract as SQLite's, and what only a server does. */
class PostgresJobStoreTest extends JobStoreContract {
    private final TestPostgres server = TestPostgres.get();
    private TestPostgres.Schema schema;
    private final List<SqlJobStore> opened = new ArrayList<>();

    @BeforeEach
    void newSchema() {
        schema = server.newSchema();
    }

    @AfterEach
    void dropSchema() {
        opened.forEach(SqlJobStore::close);
        schema.close();
    }

    @Override
    protected JobStore store(Path stateDirectory) {
        return open(schema.config(stateDirectory));
    }

    private SqlJobStore open(GantryConfig config) {
        SqlJobStore store = SqlJobStore.open(config, TestPostgres.secrets());
        opened.add(store);
        return store;
    }

    @Test
    void theSchemaIsMadeByTheSameMigrationsAsSqlite() throws Exception {
        store(state);
        try (Connection connection = server.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version, name FROM " + schema.name()
                     + ".gantry_schema ORDER BY version")) {
            List<String> steps = new ArrayList<>();
            while (rows.next()) {
                steps.add(rows.getInt(1) + " " + rows.getString(2));
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < Migrations.STEPS.size(); i++) {
                expected.add((i + 1) + " " + Migrations.STEPS.get(i));
            }
            assertEquals(expected, steps);
        }
        assertFalse(Files.exists(state.resolve("state.db")), "no SQLite file beside a server's database");
    }

    @Test
    void theFileRecordsOfAnEarlierGantryAreImportedIntoTheServer() {
        JobRecord old = full("old-1", T0);
        new FileJobStore(state).save(old);
        assertEquals(List.of(old), store(state).list());
        assertTrue(Files.isDirectory(state.resolve("jobs.imported")));
    }

    @Test
    void aConnectionTheServerDroppedIsOpenedAgain() {
        JobStore store = store(state);
        store.save(full("a-1", T0));
        assertEquals(1, schema.dropConnections(), "the store's one connection");
        // The next read meets the dead connection, opens a new one and reads again; so does the next write.
        assertEquals(1, store.list().size());
        assertEquals(1, schema.dropConnections());
        store.save(full("a-2", T0.plusSeconds(1)), JobEvent.of("a-2", T0, "submitting", "after a drop"));
        assertEquals(List.of("a-1", "a-2"), store.list().stream().map(JobRecord::id).toList());
        assertEquals(1, store.history("a-2").size(), "the event written once, not once per try");
    }

    @Test
    void processesOpeningANewDatabaseAtOnceApplyEachMigrationOnce() throws Exception {
        int openers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(openers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<SqlJobStore>> stores = new ArrayList<>();
            for (int i = 0; i < openers; i++) {
                stores.add(pool.submit(() -> {
                    start.await();
                    return open(schema.config(state));
                }));
            }
            start.countDown();
            for (Future<SqlJobStore> store : stores) {
                store.get(60, TimeUnit.SECONDS).save(full("j-" + stores.indexOf(store), T0));
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection connection = server.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + schema.name() + ".gantry_schema")) {
            rows.next();
            assertEquals(Migrations.STEPS.size(), rows.getInt(1));
        }
        assertEquals(openers, store(state).list().size());
    }

    @Test
    void aWrongPasswordIsRefusedWithAdviceAndNeverShown() throws Exception {
        Path wrong = Files.writeString(state.resolve("wrong-password"), "not-the-password-7f3a");
        GantryConfig config = GantryConfig.defaults(state).withStateServer(new StateServer(schema.url(),
                Optional.of(server.user()), Optional.of(SecretRef.parse("file:" + wrong))));
        GantryException e = assertThrows(GantryException.class, () -> open(config));
        assertTrue(e.getMessage().contains("cannot open the state database " + schema.url() + " as "
                + server.user()), e.getMessage());
        assertTrue(e.getMessage().contains("password authentication failed"), e.getMessage());
        assertTrue(e.getMessage().endsWith("; check state.user and the secret that state.password refers to"),
                e.getMessage());
        assertFalse(e.getMessage().contains("not-the-password-7f3a"), e.getMessage());
    }

    @Test
    void anUnreachableServerIsNamedWithWhatToCheck() {
        GantryConfig config = GantryConfig.defaults(state).withStateServer(new StateServer(
                "jdbc:postgresql://127.0.0.1:9/gantry", Optional.of("gantry"), Optional.empty()));
        GantryException e = assertThrows(GantryException.class, () -> open(config));
        assertTrue(e.getMessage().startsWith("cannot open the state database jdbc:postgresql://127.0.0.1:9/gantry "
                + "as gantry: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("; check state.url and that the server accepts connections from this "
                + "machine"), e.getMessage());
    }

    @Test
    void anUnresolvablePasswordReferenceFailsBeforeAnyConnection() {
        GantryConfig config = GantryConfig.defaults(state).withStateServer(new StateServer(schema.url(),
                Optional.of(server.user()), Optional.of(SecretRef.parse("file:" + state.resolve("missing")))));
        GantryException e = assertThrows(GantryException.class, () -> open(config));
        assertEquals(dev.gantry.api.ErrorCode.SECRET_UNRESOLVED, e.code());
        assertEquals(0, schema.dropConnections());
    }
}
