package dev.gantry.runs.state;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.StateServer;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/**
 * Gantry's state database: one JDBC connection, its schema brought up to date by {@link Migrations} when it opens,
 * every write in one transaction. Two kinds, one schema: the SQLite file of one machine, and a PostgreSQL server
 * that a team shares.
 *
 * <p>Several processes may share one database. SQLite in WAL mode lets readers run beside the one writer, and a
 * transaction takes the database's write lock when it begins, so writers never interleave. PostgreSQL runs writers
 * side by side; a transaction that reads before it writes (the next number of a job's history, the schema version)
 * first takes {@link #serialize the lock of what it reads}, so two processes never act on one read.
 *
 * <p>A committed transaction survives the process being killed at any point: SQLite's WAL with
 * {@code synchronous=NORMAL} loses commits only to a power loss; PostgreSQL's commits are durable. A PostgreSQL
 * connection that the server dropped is opened again, and the unit of work run again, when the drop came before the
 * commit was sent; when it came during the commit, whether the work was committed is unknown and the error says so.
 */
public final class StateDatabase implements AutoCloseable {
    /** How long a SQLite transaction waits for another process's write lock before it fails. */
    static final int BUSY_TIMEOUT_MS = 30_000;
    /** How long opening a PostgreSQL connection may take. */
    static final int CONNECT_TIMEOUT_S = 10;

    /** One unit of work on the connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Opens a connection, with the settings of its kind. */
    @FunctionalInterface
    private interface Connector {
        Connection connect() throws SQLException;
    }

    private final Dialect dialect;
    private final Connector connector;
    private final String location;
    private Connection connection;

    /** The SQLite database's name in the state directory. */
    static final String SQLITE_FILE = "state.db";

    /** Whether the state directory holds the SQLite database (opening it would create it). */
    public static boolean sqliteExists(Path stateDirectory) {
        return java.nio.file.Files.isRegularFile(stateDirectory.resolve(SQLITE_FILE));
    }

    private StateDatabase(Dialect dialect, Connector connector, String location) throws SQLException {
        this.dialect = dialect;
        this.connector = connector;
        this.location = location;
        this.connection = connector.connect();
    }

    /**
     * The configured database: the PostgreSQL server of {@code state.url} when one is set (its password resolved
     * from its reference now), else {@code state.db} in {@code state.dir}. Job records and runs share it.
     */
    public static StateDatabase configured(GantryConfig config, SecretResolver secrets) {
        if (config.stateServer().isEmpty()) {
            return sqlite(config.stateDirectory().resolve(SQLITE_FILE));
        }
        StateServer server = config.stateServer().get();
        Optional<Secret> password = server.password().map(secrets::resolve);
        return postgresql(server.url(), server.user(), password);
    }

    /** The SQLite database at {@code file} (created with its directory if missing), migrated to this version. */
    public static StateDatabase sqlite(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            createPrivately(file);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot create the state directory for " + file + ": "
                    + e.getMessage() + "; check its permissions or set state.dir in gantry.yaml", e);
        }
        Properties properties = new Properties();
        properties.setProperty("journal_mode", "WAL");
        properties.setProperty("synchronous", "NORMAL");
        properties.setProperty("busy_timeout", Integer.toString(BUSY_TIMEOUT_MS));
        properties.setProperty("foreign_keys", "true");
        // BEGIN IMMEDIATE: a transaction holds the write lock from its start, never upgrades (and deadlocks) later.
        properties.setProperty("transaction_mode", "IMMEDIATE");
        String url = "jdbc:sqlite:" + file.toAbsolutePath();
        try {
            return migrated(new StateDatabase(Dialect.SQLITE, () -> DriverManager.getConnection(url, properties),
                    file.toString()));
        } catch (SQLException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot open the state database " + file + ": "
                    + e.getMessage() + "; check that the file is a Gantry state database and is writable", e);
        }
    }

    /**
     * The database of a PostgreSQL server, migrated to this version.
     *
     * @param url {@code jdbc:postgresql://HOST[:PORT]/DATABASE[?OPTIONS]}, holding no password
     * @param user the role to log in as; empty: the URL's or the driver's default
     * @param password the role's password, resolved from its reference; kept only in memory, to reconnect
     */
    public static StateDatabase postgresql(String url, Optional<String> user, Optional<Secret> password) {
        Properties properties = new Properties();
        user.ifPresent(u -> properties.setProperty("user", u));
        password.ifPresent(p -> properties.setProperty("password", p.reveal()));
        properties.setProperty("ApplicationName", "gantry");
        properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_S));
        properties.setProperty("tcpKeepAlive", "true");
        // One multi-row INSERT per batch instead of one statement per row.
        properties.setProperty("reWriteBatchedInserts", "true");
        try {
            return migrated(new StateDatabase(Dialect.POSTGRESQL, () -> DriverManager.getConnection(url, properties),
                    url));
        } catch (SQLException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot open the state database " + url
                    + user.map(u -> " as " + u).orElse("") + ": " + e.getMessage() + "; " + Dialect.advice(e), e);
        }
    }

    /**
     * A new database file is made readable by its owner only, whatever the umask: job records name hosts, paths and
     * commands. SQLite gives its {@code -wal} and {@code -shm} files the database file's permissions.
     */
    private static void createPrivately(Path file) throws IOException {
        if (Files.exists(file) || !file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            // Another process made it first, the same way.
        }
    }

    private static StateDatabase migrated(StateDatabase database) {
        try {
            Migrations.apply(database);
            return database;
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    public synchronized <T> T transaction(String what, Work<T> work) {
        return run(what, connection -> {
            connection.setAutoCommit(false);
            T result;
            try {
                result = work.run(connection);
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection);
                throw e;
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                throw dialect.lost(e, connection) ? new CommitUnknown(e) : e;
            } finally {
                autoCommitQuietly(connection);
            }
            return result;
        });
    }

    /**
     * Runs {@code work}, reads only, outside a transaction: it takes no write lock, so it runs beside another
     * process's writer instead of waiting for it.
     */
    public synchronized <T> T read(String what, Work<T> work) {
        return run(what, work);
    }

    /**
     * Inside a transaction: holds the lock named {@code key} until the transaction ends, so that no other process
     * acts on what this one reads under that key until it has written. SQLite's transactions hold the whole
     * database's write lock already.
     */
    public void serialize(Connection connection, String key) throws SQLException {
        dialect.serialize(connection, key);
    }

    /** Where the database is, for messages: a file, or a JDBC URL (which holds no password). */
    public String location() {
        return location;
    }

    /** Runs one unit, again on a new connection when the server dropped the old one before any commit. */
    private <T> T run(String what, Work<T> unit) {
        for (int attempt = 1; ; attempt++) {
            try {
                return unit.run(connection());
            } catch (CommitUnknown e) {
                discardConnection();
                throw new GantryException(ErrorCode.INTERNAL, "the state database " + location + " dropped the "
                        + "connection while committing the work to " + what + ", so whether it was saved is unknown: "
                        + e.getCause().getMessage() + "; run the command again, which reconciles from what was saved",
                        e.getCause());
            } catch (SQLException e) {
                boolean lost = dialect.lost(e, connection);
                if (lost) {
                    discardConnection();
                }
                if (!lost || attempt > 1) {
                    throw new GantryException(ErrorCode.INTERNAL, "the state database " + location + " failed to "
                            + what + ": " + e.getMessage() + (lost ? "; " + Dialect.advice(e) : ""), e);
                }
            }
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = connector.connect();
        }
        return connection;
    }

    private void discardConnection() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // It is gone already; a new one is opened on next use.
        }
        connection = null;
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // A lost connection: the server rolls back what was not committed.
        }
    }

    private static void autoCommitQuietly(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // A lost connection is discarded by the caller.
        }
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            discardConnection();
        }
    }

    /** A commit whose reply was lost with the connection: it may or may not have been applied. */
    private static final class CommitUnknown extends SQLException {
        private static final long serialVersionUID = 1L;

        CommitUnknown(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause);
        }
    }
}
