package dev.gantry.core.jobs;

import java.util.List;
import java.util.Optional;

/**
 * Where job records live. The file store is the default; a database-backed store can replace it (the interface is
 * what core depends on).
 */
public interface JobStore {
    /** Writes the record durably (atomically replacing an older version). */
    void save(JobRecord record);

    Optional<JobRecord> find(String id);

    /** All records, oldest first. */
    List<JobRecord> list();
}
