package dev.gantry.runs.state;

import dev.gantry.core.jobs.JobStore;
import dev.gantry.core.runs.RunStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The run store on a real PostgreSQL server, in a schema of each test's own: the same contract as SQLite's, leases
 * raced for by connections that really run side by side. Fails, never skips, without the server.
 */
class PostgresRunStoreTest extends RunStoreContract {
    private final TestPostgres server = TestPostgres.get();
    private TestPostgres.Schema schema;

    @BeforeEach
    void newSchema() {
        schema = server.newSchema();
    }

    @AfterEach
    void dropSchema() {
        closeStores();
        schema.close();
    }

    @Override
    RunStore open(Clock clock) {
        return SqlRunStore.open(schema.config(state), TestPostgres.secrets(), clock);
    }

    @Override
    JobStore jobs() {
        return SqlJobStore.open(schema.config(state), TestPostgres.secrets());
    }

    @Override
    Connection connectRaw() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", server.user());
        properties.setProperty("password", TestPostgres.secrets().resolve(server.password()).reveal());
        return DriverManager.getConnection(schema.url(), properties);
    }
}
