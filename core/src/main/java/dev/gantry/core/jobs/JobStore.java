package dev.gantry.core.jobs;

import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where job records and their histories live: the state database ({@code core.state}). A record and the event that
 * says why it changed are written together or not at all.
 */
public interface JobStore extends AutoCloseable {
    /** Writes the record durably (replacing an older version of it), with no event. */
    void save(JobRecord record);

    /** Writes the record and appends the event to its job's history, in one transaction. */
    void save(JobRecord record, JobEvent event);

    /**
     * Writes the records and appends each one's event ({@code events.get(i)} is {@code records.get(i)}'s): a batch of
     * submissions bracketed at once. This default saves them one by one; a database writes them in one transaction.
     */
    default void saveAll(List<JobRecord> records, List<JobEvent> events) {
        if (records.size() != events.size()) {
            throw new IllegalArgumentException(records.size() + " records, " + events.size() + " events");
        }
        for (int i = 0; i < records.size(); i++) {
            save(records.get(i), events.get(i));
        }
    }

    /** Appends events to their jobs' histories, all in one transaction, each numbered after its job's last. */
    void append(List<JobEvent> events);

    Optional<JobRecord> find(String id);

    /**
     * The records of these ids that exist, by id: a batch's or a pass's look-up. This default finds them one by one;
     * a database reads them in one transaction.
     */
    default Map<String, JobRecord> find(Collection<String> ids) {
        Map<String, JobRecord> found = new LinkedHashMap<>();
        for (String id : ids) {
            find(id).ifPresent(record -> found.put(id, record));
        }
        return found;
    }

    /** All records, oldest first. */
    List<JobRecord> list();

    /** The job's events, in order; empty for a job with none. */
    List<JobEvent> history(String jobId);

    /** Closes what the store holds open (a database connection); its records stay. */
    @Override
    default void close() {
    }
}
