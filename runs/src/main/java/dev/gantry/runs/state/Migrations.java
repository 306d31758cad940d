package dev.gantry.runs.state;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The state database's schema, as numbered steps that only ever add: each is a resource {@code V<N>__<name>.sql}
 * beside this class, applied once, in order, in one transaction with its record in {@code gantry_schema}. A database
 * written by a newer Gantry (a step this version does not know) is refused rather than misread.
 */
final class Migrations {
    /** Every step this version knows, in order; a new one is appended, never inserted or edited. */
    static final List<String> STEPS = List.of("V1__jobs", "V2__job_events", "V3__runs", "V4__run_events",
            "V5__attempt_regions", "V6__job_labels");

    private Migrations() {
    }

    static void apply(StateDatabase database) {
        // Every gantry command opens the database: one read when it is up to date, the write lock only when not.
        if (database.read("read its schema version", Migrations::upToDate)) {
            return;
        }
        database.transaction("bring its schema up to date", connection -> {
            // Two processes opening a new database at once: the second waits, then finds the schema up to date.
            database.serialize(connection, "gantry_schema");
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("CREATE TABLE IF NOT EXISTS gantry_schema (version INTEGER PRIMARY KEY, "
                        + "name TEXT NOT NULL, applied_at TEXT NOT NULL)");
            }
            int current = current(connection);
            if (current > STEPS.size()) {
                throw new GantryException(ErrorCode.INTERNAL, "the state database " + database.location()
                        + " is at schema version " + current + ", newer than this Gantry's " + STEPS.size() + "; upgrade Gantry");
            }
            for (int version = current + 1; version <= STEPS.size(); version++) {
                String name = STEPS.get(version - 1);
                for (String sql : statements(read(name + ".sql"))) {
                    try (Statement statement = connection.createStatement()) {
                        statement.executeUpdate(sql);
                    }
                }
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO gantry_schema (version, name, applied_at) VALUES (?, ?, ?)")) {
                    insert.setInt(1, version);
                    insert.setString(2, name);
                    insert.setString(3, Instant.now().toString());
                    insert.executeUpdate();
                }
            }
            return null;
        });
    }

    /**
     * Whether the schema is this version's, read without a lock (the table is missing in a new database). Only the
     * connection's own schema counts: a PostgreSQL database may hold another Gantry's tables in another schema.
     */
    private static boolean upToDate(Connection connection) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, connection.getSchema(), "gantry_schema",
                null)) {
            if (!tables.next()) {
                return false;
            }
        }
        return current(connection) == STEPS.size();
    }

    static int current(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM gantry_schema")) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    /** A step's statements: split at the semicolons that end lines, its {@code --} comment lines dropped. */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("a migration ends without a ';': " + current);
        }
        return statements;
    }

    private static String read(String resource) {
        try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing beside " + Migrations.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
