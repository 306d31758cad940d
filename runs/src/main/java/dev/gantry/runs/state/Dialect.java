package dev.gantry.runs.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** What differs between the two databases Gantry keeps its state in; the schema and the queries do not. */
enum Dialect {
    SQLITE {
        @Override
        void serialize(Connection connection, String key) {
            // BEGIN IMMEDIATE took the database's one write lock: no other writer runs until this one ends.
        }

        @Override
        boolean lost(SQLException e, Connection connection) {
            return false; // a file is never disconnected
        }
    },
    POSTGRESQL {
        @Override
        void serialize(Connection connection, String key) throws SQLException {
            // A transaction-scoped advisory lock: released by the commit or rollback, and by the server when the
            // connection drops, so a killed process never leaves it held. The key's 64-bit hash names the lock.
            try (PreparedStatement lock = connection.prepareStatement(
                    "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
                lock.setString(1, key);
                lock.execute();
            }
        }

        @Override
        boolean lost(SQLException e, Connection connection) {
            String state = e.getSQLState();
            if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
                return true; // connection exception; the server shut down or terminated this session
            }
            try {
                return connection == null || connection.isClosed();
            } catch (SQLException ignored) {
                return true;
            }
        }
    };

    /** Holds the lock named {@code key} until the transaction ends. */
    abstract void serialize(Connection connection, String key) throws SQLException;

    /** Whether {@code e} means the connection is gone, so that a new one may succeed. */
    abstract boolean lost(SQLException e, Connection connection);

    /** What to check when a server refused a connection or dropped it, by the error's SQLSTATE. */
    static String advice(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.equals("28P01") || state.equals("28000")) {
            return "check state.user and the secret that state.password refers to";
        }
        if (state.equals("3D000")) {
            return "create the database, or correct its name in state.url";
        }
        if (state.equals("42501")) {
            return "grant the role CREATE and USAGE on the schema (Gantry creates its tables on first use)";
        }
        return "check state.url and that the server accepts connections from this machine";
    }
}
