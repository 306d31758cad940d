package dev.gantry.runs.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A table of histories, each event numbered from 1 after its owner's last (a job's in {@code job_events}, a run's in
 * {@code run_events}): how its events are inserted, the one place that numbering is written.
 *
 * @param <E> the event type
 */
final class NumberedEvents<E> {
    /** Sets an event's own columns, the parameters from 3 on: 1 is its owner's key and 2 its sequence. */
    @FunctionalInterface
    interface Binder<E> {
        void bind(PreparedStatement insert, E event) throws SQLException;
    }

    private final String table;
    private final String key;
    private final String lockPrefix;
    private final Function<E, String> owner;
    private final Binder<E> binder;
    private final String insertSql;

    /**
     * @param table the table, with the columns {@code key}, {@code sequence} and {@code columns}
     * @param key the owner's column, e.g. {@code job_id}
     * @param columns the event's own columns after {@code sequence}, in the order {@code binder} sets them
     * @param lockPrefix what an owner's lock is named, before its key
     * @param owner the key of an event's owner
     * @param binder sets an event's own columns
     */
    NumberedEvents(String table, String key, List<String> columns, String lockPrefix, Function<E, String> owner,
            Binder<E> binder) {
        this.table = table;
        this.key = key;
        this.lockPrefix = lockPrefix;
        this.owner = owner;
        this.binder = binder;
        this.insertSql = "INSERT INTO " + table + " (" + key + ", sequence, " + String.join(", ", columns)
                + ") VALUES (?, ?" + ", ?".repeat(columns.size()) + ")";
    }

    /**
     * Inserts the events in one batch, each numbered after its owner's last. The transaction holds each owner's lock
     * (taken in key order, so that two writers of several owners never deadlock), so no other writer takes a number
     * between the read and the insert.
     */
    void insert(StateDatabase database, Connection connection, List<E> events) throws SQLException {
        for (String id : new TreeSet<>(events.stream().map(owner).toList())) {
            database.serialize(connection, lockPrefix + id);
        }
        Map<String, Long> last = new HashMap<>();
        try (PreparedStatement max = connection.prepareStatement("SELECT COALESCE(MAX(sequence), 0) FROM " + table
                + " WHERE " + key + " = ?"); PreparedStatement insert = connection.prepareStatement(insertSql)) {
            for (E event : events) {
                String id = owner.apply(event);
                Long previous = last.get(id);
                long sequence = (previous == null ? lastStored(max, id) : previous) + 1;
                last.put(id, sequence);
                insert.setString(1, id);
                insert.setLong(2, sequence);
                binder.bind(insert, event);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static long lastStored(PreparedStatement max, String id) throws SQLException {
        max.setString(1, id);
        try (ResultSet rows = max.executeQuery()) {
            return rows.next() ? rows.getLong(1) : 0L;
        }
    }
}
