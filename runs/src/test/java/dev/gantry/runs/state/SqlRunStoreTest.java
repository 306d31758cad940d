package dev.gantry.runs.state;

import dev.gantry.core.jobs.JobStore;
import dev.gantry.core.runs.RunStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;

/** The run store in the SQLite file of one machine. */
class SqlRunStoreTest extends RunStoreContract {
    @Override
    RunStore open(Clock clock) {
        return SqlRunStore.open(state, clock);
    }

    @Override
    JobStore jobs() {
        return SqlJobStore.open(state);
    }

    @Override
    Connection connectRaw() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + state.resolve("state.db").toAbsolutePath());
    }
}
