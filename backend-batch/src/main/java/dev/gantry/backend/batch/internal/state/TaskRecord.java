package dev.gantry.backend.batch.internal.state;

import dev.gantry.api.backend.Eviction;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What Gantry recorded about a task beyond what Batch says: its own cancel, the evictions it counted, and the last
 * time it saw the task running, against which a requeue shows.
 *
 * @param program the workload's argv[0], for the message of a missing command
 * @param cancelled whether Gantry terminated the task on request
 * @param evictions the evictions counted so far
 * @param lastEviction the last of them; present exactly when {@code evictions > 0}
 * @param lastRunning the last run Gantry saw, if it saw one
 */
public record TaskRecord(String program, boolean cancelled, int evictions, Optional<Eviction> lastEviction,
                         Optional<Sighting> lastRunning) {
    /**
     * One run of a task as Batch reported it while it ran.
     *
     * @param start {@code executionInfo.startTime}
     * @param nodeId {@code nodeInfo.nodeId}
     */
    public record Sighting(Instant start, String nodeId) {
        public Sighting {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(nodeId, "nodeId");
        }
    }

    public TaskRecord {
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(lastEviction, "lastEviction");
        Objects.requireNonNull(lastRunning, "lastRunning");
        if ((evictions > 0) != lastEviction.isPresent()) {
            throw new IllegalArgumentException("lastEviction must be present exactly when evictions > 0");
        }
    }

    /** A task just submitted: nothing seen yet. */
    public static TaskRecord submitted(String program) {
        return new TaskRecord(program, false, 0, Optional.empty(), Optional.empty());
    }

    public TaskRecord withCancel() {
        return new TaskRecord(program, true, evictions, lastEviction, lastRunning);
    }

    /**
     * This record with one more eviction; the run it ended is forgotten, so that the same requeue is never counted
     * twice (the next run seen is recorded with {@link #withLastRunning}).
     */
    public TaskRecord withEviction(Eviction eviction) {
        return new TaskRecord(program, cancelled, evictions + 1, Optional.of(eviction), Optional.empty());
    }

    public TaskRecord withLastRunning(Optional<Sighting> sighting) {
        return new TaskRecord(program, cancelled, evictions, lastEviction, sighting);
    }
}
