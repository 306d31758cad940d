package dev.gantry.core.state;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Gantry's state database: one JDBC connection, its schema brought up to date by {@link Migrations} when it opens,
 * and every unit of work in one transaction. Several processes may share one database: SQLite in WAL mode lets
 * readers run beside the one writer, a writer waits for another's transaction (up to the busy timeout), and a
 * transaction takes the write lock when it begins, so two processes never interleave a read and a write.
 *
 * <p>WAL with {@code synchronous=NORMAL} keeps every committed transaction when the process is killed at any point;
 * only a power loss can take back the last commits.
 */
public final class StateDatabase implements AutoCloseable {
    /** How long a transaction waits for another process's write lock before it fails. */
    static final int BUSY_TIMEOUT_MS = 30_000;

    /** One unit of work on the connection, inside a transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final Connection connection;
    private final String location;

    private StateDatabase(Connection connection, String location) {
        this.connection = connection;
        this.location = location;
    }

    /** The SQLite database at {@code file} (created with its directory if missing), migrated to this version. */
    public static StateDatabase sqlite(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot create the state directory for " + file + ": "
                    + e.getMessage() + "; check its permissions or set stateDir in gantry.yaml", e);
        }
        Properties properties = new Properties();
        properties.setProperty("journal_mode", "WAL");
        properties.setProperty("synchronous", "NORMAL");
        properties.setProperty("busy_timeout", Integer.toString(BUSY_TIMEOUT_MS));
        properties.setProperty("foreign_keys", "true");
        // BEGIN IMMEDIATE: a transaction holds the write lock from its start, never upgrades (and deadlocks) later.
        properties.setProperty("transaction_mode", "IMMEDIATE");
        try {
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
            StateDatabase database = new StateDatabase(connection, file.toString());
            try {
                Migrations.apply(database);
            } catch (RuntimeException e) {
                database.close();
                throw e;
            }
            return database;
        } catch (SQLException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot open the state database " + file + ": "
                    + e.getMessage() + "; check that the file is a Gantry state database and is writable", e);
        }
    }

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    public synchronized <T> T transaction(String what, Work<T> work) {
        try {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new GantryException(ErrorCode.INTERNAL, "the state database " + location + " failed to " + what
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work}, one query, outside a transaction: it reads a snapshot of the database and takes no write
     * lock, so it runs beside another process's writer (WAL) instead of waiting for it.
     */
    public synchronized <T> T read(String what, Work<T> work) {
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new GantryException(ErrorCode.INTERNAL, "the state database " + location + " failed to " + what
                    + ": " + e.getMessage(), e);
        }
    }

    /** Where the database is, for messages. */
    public String location() {
        return location;
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // Closing a connection whose work is committed loses nothing.
        }
    }
}
