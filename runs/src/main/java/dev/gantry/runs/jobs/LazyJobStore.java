package dev.gantry.runs.jobs;

import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A store opened on first use: a command that reads no job (plan, validate, doctor) never opens the state database,
 * so it neither pays for that nor fails when a shared state server is out of reach.
 */
public final class LazyJobStore implements JobStore {
    private final Supplier<? extends JobStore> opener;
    private JobStore store;

    public LazyJobStore(Supplier<? extends JobStore> opener) {
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    private synchronized JobStore store() {
        if (store == null) {
            store = Objects.requireNonNull(opener.get(), "the opened store");
        }
        return store;
    }

    @Override
    public void save(JobRecord record) {
        store().save(record);
    }

    @Override
    public void save(JobRecord record, JobEvent event) {
        store().save(record, event);
    }

    @Override
    public Map<String, JobRecord> find(Collection<String> ids) {
        return store().find(ids);
    }

    @Override
    public void saveAll(List<JobRecord> records, List<JobEvent> events) {
        store().saveAll(records, events);
    }

    @Override
    public void append(List<JobEvent> events) {
        store().append(events);
    }

    @Override
    public Optional<JobRecord> find(String id) {
        return store().find(id);
    }

    @Override
    public List<JobRecord> list() {
        return store().list();
    }

    @Override
    public List<JobEvent> history(String jobId) {
        return store().history(jobId);
    }

    /** Closes the store if it was opened; a later use opens it again. */
    @Override
    public synchronized void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
