package dev.gantry.runs.state;

import static dev.gantry.runs.state.SqlJobStore.TIME;
import static dev.gantry.runs.state.SqlJobStore.time;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Predicate;
import dev.gantry.model.RunLease;

/**
 * Workflow runs, their steps, attempts, histories and leases in the state database ({@link StateDatabase}), beside
 * the job records of {@link SqlJobStore}: the same schema, migrations and connection handling; each write one
 * transaction. A lease is read and written under the run's lock ({@link StateDatabase#serialize}), so two processes
 * never both take it.
 */
public final class SqlRunStore implements RunStore {
    private static final String RUN_COLUMNS = "id, name, spec_file, spec_hash, git_commit, git_dirty, catalog_source, "
            + "catalog_date, gantry_version, backend, state, message, created_at, updated_at, ended_at";
    private static final String STEP_COLUMNS = "run_id, name, state, attempts, evictions, next_attempt_at, reason, "
            + "updated_at, retry_base";
    private static final String ATTEMPT_COLUMNS = "run_id, step, number, job_id, price_per_hour, spot, created_at, "
            + "evictions, outcome, region";
    /** What a step's newer version does to its older one: replaces it, every field. */
    private static final String REPLACE_STEP = "ON CONFLICT (run_id, name) DO UPDATE SET state = excluded.state, "
            + "attempts = excluded.attempts, evictions = excluded.evictions, next_attempt_at = "
            + "excluded.next_attempt_at, reason = excluded.reason, updated_at = excluded.updated_at, retry_base = "
            + "excluded.retry_base";
    /** Each run's history, numbered under a lock of its own ({@code run-events:RUN}): never waits on a lease. */
    private static final NumberedEvents<RunEvent> EVENTS = new NumberedEvents<>("run_events", "run_id",
            List.of("at", "step", "kind", "detail"), "run-events:", RunEvent::runId, (insert, event) -> {
                insert.setString(3, TIME.format(event.at()));
                insert.setString(4, event.step().orElse(null));
                insert.setString(5, event.kind());
                insert.setString(6, event.detail());
            });

    private final StateDatabase database;
    /** What a lease's expiry is measured against; every process sharing the database reads its own. */
    private final Clock clock;

    public SqlRunStore(StateDatabase database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** The store of {@code stateDirectory/state.db}, the file {@link SqlJobStore#open(Path)} opens. */
    public static SqlRunStore open(Path stateDirectory, Clock clock) {
        return new SqlRunStore(StateDatabase.sqlite(stateDirectory.resolve(StateDatabase.SQLITE_FILE)), clock);
    }

    /**
     * The configured store, where {@link SqlJobStore#open(GantryConfig, SecretResolver)} keeps the jobs: on the
     * PostgreSQL server of {@code state.url} when one is set (its password resolved from its reference now), else in
     * {@code state.dir}.
     */
    public static SqlRunStore open(GantryConfig config, SecretResolver secrets, Clock clock) {
        return new SqlRunStore(StateDatabase.configured(config, secrets), clock);
    }

    @Override
    public void create(RunRecord run, List<StepRecord> steps) {
        checkSteps(run, steps);
        database.transaction("create run " + run.id(), connection -> {
            insertRun(connection, run, steps);
            return null;
        });
    }

    @Override
    public RunRecord open(RunRecord run, List<StepRecord> steps) {
        checkSteps(run, steps);
        return database.transaction("open a run of " + run.name(), connection -> {
            // Under a lock of the workflow and spec: two processes opening it at once find one run, not two.
            database.serialize(connection, "workflow:" + run.name() + ":" + run.specHash());
            Optional<RunRecord> unfinished = unfinished(connection, run.name(), run.specHash());
            if (unfinished.isPresent()) {
                return unfinished.get();
            }
            insertRun(connection, run, steps);
            return run;
        });
    }

    private static void checkSteps(RunRecord run, List<StepRecord> steps) {
        for (StepRecord step : steps) {
            if (!step.runId().equals(run.id())) {
                throw new IllegalArgumentException("step " + step.name() + " of run " + step.runId()
                        + " created with run " + run.id());
            }
        }
    }

    private static void insertRun(Connection connection, RunRecord run, List<StepRecord> steps) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO runs (" + RUN_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, run.id());
            insert.setString(2, run.name());
            insert.setString(3, run.specFile());
            insert.setString(4, run.specHash());
            insert.setString(5, run.gitCommit().orElse(null));
            if (run.gitDirty().isPresent()) {
                insert.setBoolean(6, run.gitDirty().get());
            } else {
                insert.setNull(6, Types.BOOLEAN);
            }
            insert.setString(7, run.catalogSource());
            insert.setString(8, run.catalogDate().toString());
            insert.setString(9, run.gantryVersion());
            insert.setString(10, run.backend());
            insert.setString(11, run.state().name());
            insert.setString(12, run.message().orElse(null));
            insert.setString(13, TIME.format(run.createdAt()));
            insert.setString(14, TIME.format(run.updatedAt()));
            insert.setString(15, run.endedAt().map(TIME::format).orElse(null));
            insert.executeUpdate();
        }
        // No ON CONFLICT: a step named twice fails the whole run.
        writeSteps(connection, steps, "");
    }

    @Override
    public boolean updateState(String runId, RunState state, Optional<String> message, Instant at) {
        return database.transaction("update run " + runId, connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET state = ?, message = ?, "
                    + "updated_at = ?, ended_at = ? WHERE id = ?")) {
                update.setString(1, state.name());
                update.setString(2, message.orElse(null));
                update.setString(3, TIME.format(at));
                update.setString(4, state.finished() ? TIME.format(at) : null);
                update.setString(5, runId);
                return update.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void saveStep(StepRecord step) {
        saveSteps("save step " + step.name() + " of run " + step.runId(), List.of(step));
    }

    @Override
    public void saveSteps(List<StepRecord> steps) {
        // A step twice in one batch: SQLite would keep the last, PostgreSQL may refuse a statement that updates a
        // row twice; refused alike on both.
        Set<List<String>> keys = new HashSet<>();
        for (StepRecord step : steps) {
            if (!keys.add(List.of(step.runId(), step.name()))) {
                throw new IllegalArgumentException("step " + step.name() + " of run " + step.runId()
                        + " saved twice in one call");
            }
        }
        if (!steps.isEmpty()) {
            saveSteps("save " + steps.size() + " steps", steps);
        }
    }

    private void saveSteps(String what, List<StepRecord> steps) {
        database.transaction(what, connection -> {
            writeSteps(connection, steps, REPLACE_STEP);
            return null;
        });
    }

    /**
     * Inserts the steps in one batch; when a step's name is taken in its run, does what {@code onConflict} says (both
     * databases' syntax), or fails when it is empty.
     */
    private static void writeSteps(Connection connection, List<StepRecord> steps, String onConflict)
            throws SQLException {
        if (steps.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO run_steps (" + STEP_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) " + onConflict)) {
            for (StepRecord step : steps) {
                bind(insert, step);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void bind(PreparedStatement statement, StepRecord step) throws SQLException {
        statement.setString(1, step.runId());
        statement.setString(2, step.name());
        statement.setString(3, step.state().name());
        statement.setInt(4, step.attempts());
        statement.setInt(5, step.evictions());
        statement.setString(6, step.nextAttemptAt().map(TIME::format).orElse(null));
        statement.setString(7, step.reason().orElse(null));
        statement.setString(8, TIME.format(step.updatedAt()));
        statement.setInt(9, step.retryBase());
    }

    @Override
    public void addAttempt(AttemptRecord attempt) {
        database.transaction("record " + name(attempt), connection -> {
            insertAttempt(connection, attempt);
            return null;
        });
    }

    @Override
    public void startAttempt(StepRecord step, AttemptRecord attempt) {
        startAttempts(List.of(step), List.of(attempt));
    }

    @Override
    public void startAttempts(List<StepRecord> steps, List<AttemptRecord> attempts) {
        if (steps.size() != attempts.size()) {
            throw new IllegalArgumentException(steps.size() + " steps, " + attempts.size() + " attempts");
        }
        if (steps.isEmpty()) {
            return;
        }
        for (int i = 0; i < steps.size(); i++) {
            StepRecord step = steps.get(i);
            AttemptRecord attempt = attempts.get(i);
            if (!step.runId().equals(attempt.runId()) || !step.name().equals(attempt.step())) {
                throw new IllegalArgumentException(name(attempt) + " started with step " + step.name() + " of run "
                        + step.runId());
            }
        }
        String what = steps.size() == 1 ? "start " + name(attempts.get(0)) : "start " + steps.size() + " attempts";
        database.transaction(what, connection -> {
            // Under the run's lock, as its lease is taken and given up: a start queues behind those rather than
            // interleaving with them. A second start of the same number fails on the key, and its step is left.
            for (String runId : attempts.stream().map(AttemptRecord::runId).distinct().toList()) {
                database.serialize(connection, "run:" + runId);
            }
            for (AttemptRecord attempt : attempts) {
                insertAttempt(connection, attempt);
            }
            writeSteps(connection, steps, REPLACE_STEP);
            return null;
        });
    }

    /** Inserts the attempt; fails (on the key) when its step has one of its number. */
    private static void insertAttempt(Connection connection, AttemptRecord attempt) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO run_attempts (" + ATTEMPT_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, attempt.runId());
            insert.setString(2, attempt.step());
            insert.setInt(3, attempt.number());
            insert.setString(4, attempt.jobId());
            if (attempt.pricePerHour().isPresent()) {
                insert.setDouble(5, attempt.pricePerHour().getAsDouble());
            } else {
                insert.setNull(5, Types.DOUBLE);
            }
            insert.setBoolean(6, attempt.spot());
            insert.setString(7, TIME.format(attempt.createdAt()));
            insert.setInt(8, attempt.evictions());
            insert.setString(9, attempt.outcome().map(AttemptOutcome::name).orElse(null));
            insert.setString(10, attempt.region().orElse(null));
            insert.executeUpdate();
        }
    }

    @Override
    public void updateAttempt(AttemptRecord attempt) {
        database.transaction("update " + name(attempt), connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE run_attempts SET evictions = ?, "
                    + "outcome = ? WHERE run_id = ? AND step = ? AND number = ?")) {
                update.setInt(1, attempt.evictions());
                update.setString(2, attempt.outcome().map(AttemptOutcome::name).orElse(null));
                update.setString(3, attempt.runId());
                update.setString(4, attempt.step());
                update.setInt(5, attempt.number());
                if (update.executeUpdate() == 0) {
                    // A caller's bug: an attempt is recorded (startAttempt, addAttempt) before its job is submitted.
                    throw new GantryException(ErrorCode.INTERNAL, "cannot update " + name(attempt) + " in the state "
                            + "database " + database.location() + ": it was never recorded");
                }
            }
            return null;
        });
    }

    /** For messages: "attempt N of step S of run R". */
    private static String name(AttemptRecord attempt) {
        return "attempt " + attempt.number() + " of step " + attempt.step() + " of run " + attempt.runId();
    }

    @Override
    public void append(List<RunEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        database.transaction("record " + events.size() + " run events", connection -> {
            EVENTS.insert(database, connection, events);
            return null;
        });
    }

    @Override
    public List<RunEvent> events(String runId) {
        return eventsAfter(runId, 0);
    }

    @Override
    public List<RunEvent> eventsAfter(String runId, long sequence) {
        return database.read("read the history of run " + runId, connection -> {
            List<RunEvent> events = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT sequence, at, step, kind, detail FROM "
                    + "run_events WHERE run_id = ? AND sequence > ? ORDER BY sequence")) {
                query.setString(1, runId);
                query.setLong(2, sequence);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        events.add(new RunEvent(runId, rows.getLong(1), time(rows.getString(2)),
                                Optional.ofNullable(rows.getString(3)), rows.getString(4), rows.getString(5)));
                    }
                }
            }
            return events;
        });
    }

    @Override
    public Optional<RunRecord> find(String runId) {
        return database.read("read run " + runId, connection -> {
            List<RunRecord> runs = runs(connection, "WHERE id = ?", runId);
            return runs.stream().findFirst();
        });
    }

    @Override
    public Optional<RunRecord> findUnfinished(String name, String specHash) {
        return database.read("find the unfinished run of " + name, connection -> unfinished(connection, name,
                specHash));
    }

    private static Optional<RunRecord> unfinished(Connection connection, String name, String specHash)
            throws SQLException {
        // RUNNING is the one unfinished state.
        return runs(connection, "WHERE name = ? AND spec_hash = ? AND state = ? ORDER BY created_at DESC, id DESC "
                + "LIMIT 1", name, specHash, RunState.RUNNING.name()).stream().findFirst();
    }

    @Override
    public List<RunRecord> list(int limit, boolean includeFinished) {
        if (limit < 0) {
            throw new IllegalArgumentException("a limit is 0 or more: " + limit);
        }
        return database.read("list runs", connection -> includeFinished
                ? runs(connection, "ORDER BY created_at DESC, id DESC LIMIT ?", limit)
                : runs(connection, "WHERE state = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                        RunState.RUNNING.name(), limit));
    }

    /** The runs that {@code where} (and what follows it) selects, its parameters strings or ints. */
    private static List<RunRecord> runs(Connection connection, String where, Object... parameters)
            throws SQLException {
        List<RunRecord> runs = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT " + RUN_COLUMNS + " FROM runs "
                + where)) {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] instanceof Integer n) {
                    query.setInt(i + 1, n);
                } else {
                    query.setString(i + 1, (String) parameters[i]);
                }
            }
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    runs.add(run(rows));
                }
            }
        }
        return runs;
    }

    private static RunRecord run(ResultSet row) throws SQLException {
        boolean dirty = row.getBoolean("git_dirty");
        Optional<Boolean> gitDirty = row.wasNull() ? Optional.empty() : Optional.of(dirty);
        return new RunRecord(row.getString("id"), row.getString("name"), row.getString("spec_file"),
                row.getString("spec_hash"), Optional.ofNullable(row.getString("git_commit")), gitDirty,
                row.getString("catalog_source"), LocalDate.parse(row.getString("catalog_date")),
                row.getString("gantry_version"), row.getString("backend"), RunState.valueOf(row.getString("state")),
                Optional.ofNullable(row.getString("message")), time(row.getString("created_at")),
                time(row.getString("updated_at")), Optional.ofNullable(row.getString("ended_at"))
                .map(SqlJobStore::time));
    }

    @Override
    public List<StepRecord> steps(String runId) {
        return database.read("read the steps of run " + runId, connection -> {
            List<StepRecord> steps = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT " + STEP_COLUMNS + " FROM run_steps "
                    + "WHERE run_id = ? ORDER BY name")) {
                query.setString(1, runId);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        steps.add(new StepRecord(runId, rows.getString("name"),
                                StepState.valueOf(rows.getString("state")), rows.getInt("attempts"),
                                rows.getInt("evictions"), Optional.ofNullable(rows.getString("next_attempt_at"))
                                .map(SqlJobStore::time), Optional.ofNullable(rows.getString("reason")),
                                time(rows.getString("updated_at")), rows.getInt("retry_base")));
                    }
                }
            }
            return steps;
        });
    }

    @Override
    public List<AttemptRecord> attempts(String runId) {
        return database.read("read the attempts of run " + runId, connection -> {
            List<AttemptRecord> attempts = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT " + ATTEMPT_COLUMNS + " FROM "
                    + "run_attempts WHERE run_id = ? ORDER BY created_at, step, number")) {
                query.setString(1, runId);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        attempts.add(attempt(rows));
                    }
                }
            }
            return attempts;
        });
    }

    private static AttemptRecord attempt(ResultSet row) throws SQLException {
        double price = row.getDouble("price_per_hour");
        OptionalDouble pricePerHour = row.wasNull() ? OptionalDouble.empty() : OptionalDouble.of(price);
        return new AttemptRecord(row.getString("run_id"), row.getString("step"), row.getInt("number"),
                row.getString("job_id"), pricePerHour, row.getBoolean("spot"),
                Optional.ofNullable(row.getString("region")), time(row.getString("created_at")),
                row.getInt("evictions"), Optional.ofNullable(row.getString("outcome")).map(AttemptOutcome::valueOf));
    }

    @Override
    public Optional<RunLease> acquireLease(String runId, String holder, Duration ttl) {
        return acquireLease(runId, holder, ttl, lease -> false);
    }

    @Override
    public Optional<RunLease> acquireLease(String runId, String holder, Duration ttl, Predicate<RunLease> abandoned) {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(abandoned, "abandoned");
        positive(ttl);
        return database.transaction("take the lease of run " + runId, connection -> {
            database.serialize(connection, "run:" + runId);
            Instant now = clock.instant();
            Optional<RunLease> current = lease(connection, runId);
            if (current.isPresent() && !current.get().holder().equals(holder)
                    && now.isBefore(current.get().expiresAt()) && !abandoned.test(current.get())) {
                return Optional.empty();
            }
            RunLease lease = new RunLease(runId, holder, now.plus(ttl));
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO run_leases (run_id, holder, "
                    + "expires_at) VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET holder = excluded.holder, "
                    + "expires_at = excluded.expires_at")) {
                upsert.setString(1, runId);
                upsert.setString(2, holder);
                upsert.setString(3, TIME.format(lease.expiresAt()));
                upsert.executeUpdate();
            }
            return Optional.of(lease);
        });
    }

    @Override
    public Optional<RunLease> renewLease(String runId, String holder, Duration ttl) {
        positive(ttl);
        return database.transaction("renew the lease of run " + runId, connection -> {
            // Under the run's lock too: otherwise a renewal could land between another process's read of an expired
            // lease and its write, and both would think they hold it.
            database.serialize(connection, "run:" + runId);
            RunLease lease = new RunLease(runId, holder, clock.instant().plus(ttl));
            try (PreparedStatement update = connection.prepareStatement("UPDATE run_leases SET expires_at = ? "
                    + "WHERE run_id = ? AND holder = ?")) {
                update.setString(1, TIME.format(lease.expiresAt()));
                update.setString(2, runId);
                update.setString(3, holder);
                return update.executeUpdate() == 1 ? Optional.of(lease) : Optional.<RunLease>empty();
            }
        });
    }

    @Override
    public boolean releaseLease(String runId, String holder) {
        return database.transaction("release the lease of run " + runId, connection -> {
            database.serialize(connection, "run:" + runId);
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM run_leases WHERE run_id = ? "
                    + "AND holder = ?")) {
                delete.setString(1, runId);
                delete.setString(2, holder);
                return delete.executeUpdate() == 1;
            }
        });
    }

    @Override
    public Optional<RunLease> lease(String runId) {
        return database.read("read the lease of run " + runId, connection -> lease(connection, runId));
    }

    private static Optional<RunLease> lease(Connection connection, String runId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT holder, expires_at FROM run_leases "
                + "WHERE run_id = ?")) {
            query.setString(1, runId);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(new RunLease(runId, rows.getString(1), time(rows.getString(2))))
                        : Optional.empty();
            }
        }
    }

    private static void positive(Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a lease lasts a positive time: " + ttl);
        }
    }

    @Override
    public void close() {
        database.close();
    }
}
