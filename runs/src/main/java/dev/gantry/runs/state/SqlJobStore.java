package dev.gantry.runs.state;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.runs.jobs.FileJobStore;
import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Job records and their histories in the state database ({@link StateDatabase}): one row per job, one per event,
 * each save one transaction.
 * The records of the file store that came before ({@code STATE_DIR/jobs/*.json}) are imported when the database is
 * first opened beside them: each one that the database lacks is copied in, then the directory is renamed
 * {@code jobs.imported}, kept whole, so nothing is lost and nothing is imported twice.
 */
public final class SqlJobStore implements JobStore {
    /** Fixed width, so that the text order of two times is their order; every table's times are written so. */
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.nnnnnnnnn'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String COLUMNS = "id, workload, spec_file, backend, backend_job_id, stage, state, exit_code, "
            + "message, placement, created_at, updated_at, started_at, ended_at, evictions, last_eviction_at, "
            + "last_eviction_reason, labels";
    /** Each job's history, numbered under the lock {@code job-events:JOB}. */
    private static final NumberedEvents<JobEvent> EVENTS = new NumberedEvents<>("job_events", "job_id",
            List.of("at", "kind", "detail"), "job-events:", JobEvent::jobId, (insert, event) -> {
                insert.setString(3, TIME.format(event.at()));
                insert.setString(4, event.kind());
                insert.setString(5, event.detail());
            });

    private final StateDatabase database;

    public SqlJobStore(StateDatabase database) {
        this.database = database;
    }

    /**
     * The store of {@code stateDirectory/state.db}, with the JSON records of an older Gantry in
     * {@code stateDirectory/jobs} imported first.
     */
    public static SqlJobStore open(Path stateDirectory) {
        return opened(StateDatabase.sqlite(stateDirectory.resolve(StateDatabase.SQLITE_FILE)), stateDirectory);
    }

    /**
     * The configured store: on the PostgreSQL server of {@code state.url} when one is set (its password resolved
     * from its reference now), else in {@code state.dir}; either way the JSON records of an older Gantry in the
     * state directory are imported first.
     */
    public static SqlJobStore open(GantryConfig config, SecretResolver secrets) {
        return opened(StateDatabase.configured(config, secrets), config.stateDirectory());
    }

    private static SqlJobStore opened(StateDatabase database, Path stateDirectory) {
        SqlJobStore store = new SqlJobStore(database);
        try {
            store.importFiles(stateDirectory);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return store;
    }

    /** Copies in the file store's records that the database lacks, then sets their directory aside, kept. */
    void importFiles(Path stateDirectory) {
        Path jobs = stateDirectory.resolve("jobs");
        if (!Files.isDirectory(jobs)) {
            return;
        }
        List<JobRecord> records = new FileJobStore(stateDirectory).list();
        database.transaction("import the job records of " + jobs, connection -> {
            for (JobRecord record : records) {
                write(connection, record, "DO NOTHING");
            }
            return null;
        });
        try {
            Path aside = stateDirectory.resolve("jobs.imported");
            for (int n = 2; Files.exists(aside); n++) {
                aside = stateDirectory.resolve("jobs.imported." + n);
            }
            Files.move(jobs, aside);
        } catch (IOException e) {
            // Another process set it aside first; its records are in the database either way.
            if (Files.isDirectory(jobs)) {
                throw new GantryException(ErrorCode.INTERNAL, "imported the job records of " + jobs + " but cannot "
                        + "rename the directory (" + e + "); rename it yourself: its records are in the database", e);
            }
        }
    }

    @Override
    public void save(JobRecord record) {
        database.transaction("save job " + record.id(), connection -> {
            upsert(connection, record);
            return null;
        });
    }

    @Override
    public void save(JobRecord record, JobEvent event) {
        if (!event.jobId().equals(record.id())) {
            throw new IllegalArgumentException("event of job " + event.jobId() + " saved with record " + record.id());
        }
        database.transaction("save job " + record.id(), connection -> {
            upsert(connection, record);
            EVENTS.insert(database, connection, List.of(event));
            return null;
        });
    }

    /** Every record and its event in one transaction: a batch of 1,000 submissions is one commit, not 1,000. */
    @Override
    public void saveAll(List<JobRecord> records, List<JobEvent> events) {
        if (records.size() != events.size()) {
            throw new IllegalArgumentException(records.size() + " records, " + events.size() + " events");
        }
        for (int i = 0; i < records.size(); i++) {
            if (!events.get(i).jobId().equals(records.get(i).id())) {
                throw new IllegalArgumentException("event of job " + events.get(i).jobId() + " saved with record "
                        + records.get(i).id());
            }
        }
        if (records.isEmpty()) {
            return;
        }
        database.transaction("save " + records.size() + " jobs", connection -> {
            for (JobRecord record : records) {
                upsert(connection, record);
            }
            EVENTS.insert(database, connection, events);
            return null;
        });
    }

    @Override
    public void append(List<JobEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        database.transaction("record " + events.size() + " events", connection -> {
            EVENTS.insert(database, connection, events);
            return null;
        });
    }

    @Override
    public List<JobEvent> history(String jobId) {
        return database.read("read the history of job " + jobId, connection -> {
            List<JobEvent> events = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT sequence, at, kind, detail FROM "
                    + "job_events WHERE job_id = ? ORDER BY sequence")) {
                query.setString(1, jobId);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        events.add(new JobEvent(jobId, rows.getLong(1), time(rows.getString(2)), rows.getString(3),
                                rows.getString(4)));
                    }
                }
            }
            return events;
        });
    }

    @Override
    public Optional<JobRecord> find(String id) {
        return database.read("read job " + id, connection -> find(connection, id));
    }

    /** Every record asked for in one read transaction. */
    @Override
    public Map<String, JobRecord> find(Collection<String> ids) {
        return database.read("read " + ids.size() + " jobs", connection -> {
            Map<String, JobRecord> found = new LinkedHashMap<>();
            for (String id : ids) {
                find(connection, id).ifPresent(record -> found.put(id, record));
            }
            return found;
        });
    }

    @Override
    public List<JobRecord> list() {
        return database.read("list jobs", connection -> {
            List<JobRecord> records = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT " + COLUMNS + " FROM jobs ORDER BY "
                    + "created_at, id"); ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    records.add(read(rows));
                }
            }
            return records;
        });
    }

    private static Optional<JobRecord> find(Connection connection, String id) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT " + COLUMNS + " FROM jobs WHERE id = ?")) {
            query.setString(1, id);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(read(rows)) : Optional.empty();
            }
        }
    }

    private static void upsert(Connection connection, JobRecord record) throws SQLException {
        write(connection, record, "DO UPDATE SET workload = excluded.workload, spec_file = excluded.spec_file, "
                + "backend = excluded.backend, backend_job_id = excluded.backend_job_id, stage = excluded.stage, "
                + "state = excluded.state, exit_code = excluded.exit_code, message = excluded.message, placement = "
                + "excluded.placement, created_at = excluded.created_at, updated_at = excluded.updated_at, "
                + "started_at = excluded.started_at, ended_at = excluded.ended_at, evictions = excluded.evictions, "
                + "last_eviction_at = excluded.last_eviction_at, last_eviction_reason = excluded.last_eviction_reason, "
                + "labels = excluded.labels");
    }

    /** Inserts the record; when its id is taken, does what {@code onConflict} says (both databases' syntax). */
    private static void write(Connection connection, JobRecord r, String onConflict) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO jobs (" + COLUMNS + ") VALUES "
                + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) " + onConflict)) {
            upsert.setString(1, r.id());
            upsert.setString(2, r.workload());
            upsert.setString(3, r.specFile().orElse(null));
            upsert.setString(4, r.backend());
            upsert.setString(5, r.ref().map(JobRef::id).orElse(null));
            upsert.setString(6, r.stage().name());
            upsert.setString(7, r.state().name());
            if (r.exitCode().isPresent()) {
                upsert.setInt(8, r.exitCode().getAsInt());
            } else {
                upsert.setNull(8, Types.INTEGER);
            }
            upsert.setString(9, r.message());
            upsert.setString(10, r.placement());
            upsert.setString(11, TIME.format(r.createdAt()));
            upsert.setString(12, TIME.format(r.updatedAt()));
            upsert.setString(13, r.startedAt().map(TIME::format).orElse(null));
            upsert.setString(14, r.endedAt().map(TIME::format).orElse(null));
            upsert.setInt(15, r.evictions());
            upsert.setString(16, r.lastEviction().map(e -> TIME.format(e.at())).orElse(null));
            upsert.setString(17, r.lastEviction().map(Eviction::reason).orElse(null));
            upsert.setString(18, JobLabels.toColumn(r.labels()));
            upsert.executeUpdate();
        }
    }

    private static JobRecord read(ResultSet row) throws SQLException {
        String backend = row.getString("backend");
        int exit = row.getInt("exit_code");
        OptionalInt exitCode = row.wasNull() ? OptionalInt.empty() : OptionalInt.of(exit);
        String evictedAt = row.getString("last_eviction_at");
        String evictedWhy = row.getString("last_eviction_reason");
        Optional<Eviction> lastEviction = Optional.ofNullable(evictedAt)
                .map(at -> new Eviction(time(at), evictedWhy == null ? "" : evictedWhy));
        return new JobRecord(row.getString("id"), row.getString("workload"),
                Optional.ofNullable(row.getString("spec_file")), backend,
                Optional.ofNullable(row.getString("backend_job_id")).map(id -> new JobRef(backend, id)),
                JobRecord.Stage.valueOf(row.getString("stage")), JobState.valueOf(row.getString("state")), exitCode,
                row.getString("message"), row.getString("placement"), time(row.getString("created_at")),
                time(row.getString("updated_at")), Optional.ofNullable(row.getString("started_at"))
                .map(SqlJobStore::time), Optional.ofNullable(row.getString("ended_at")).map(SqlJobStore::time),
                row.getInt("evictions"), lastEviction, JobLabels.fromColumn(row.getString("labels")));
    }

    @Override
    public void close() {
        database.close();
    }

    static Instant time(String text) {
        return Instant.from(TIME.parse(text));
    }
}
