package dev.gantry.backend.batch.internal;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.secrets.SecretBlobs;
import dev.gantry.backend.batch.internal.status.Poll;
import dev.gantry.backend.batch.internal.status.TrackedTask;
import java.util.Optional;

/**
 * The state directory's task entries as the status side sees them ({@link TrackedTask}), and what a poll changed
 * saved back: records (so eviction counts never fall across processes), terminal statuses (answered later without a
 * call), and the secrets blob of an ended task deleted.
 */
final class Tracking {
    /** Why Gantry holds a task rather than Batch: what Batch's {@code dependsOn} cannot carry. */
    static final String HELD_REASON = "a dependency Batch cannot carry: AFTER_ANY, a task of another pool's job, or "
            + "a list longer than Batch's 64,000 characters";

    private final TaskEntries entries;
    private final SecretBlobs secrets;
    private final System.Logger logger;

    Tracking(TaskEntries entries, SecretBlobs secrets, System.Logger logger) {
        this.entries = entries;
        this.secrets = secrets;
        this.logger = logger;
    }

    /** The tracked task of a JobRef's id; empty for an id this state directory does not know. */
    Optional<TrackedTask> tracked(String id) {
        return entries.byId(id).map(Tracking::tracked);
    }

    static TrackedTask tracked(TaskEntry entry) {
        Optional<JobStatus> ended = entry.terminal();
        if (ended.isEmpty() && entry.phase() == TaskEntry.Phase.FAILED) {
            ended = Optional.of(JobStatus.of(JobState.FAILED, "Azure Batch never ran it: its submit failed: "
                    + entry.failure().orElseThrow()));
        }
        Optional<String> held = entry.phase() == TaskEntry.Phase.HELD ? Optional.of(HELD_REASON) : Optional.empty();
        return new TrackedTask(entry.ref(), entry.poolId(), entry.submittedAt(), entry.nodes(), entry.record(),
                entry.dependencies(), held, ended);
    }

    /** Saves what the poll changed; a held task it decided to cancel is among its ended ones. */
    void save(Poll poll) {
        poll.records().forEach((id, record) -> entries.byId(id)
                .ifPresent(entry -> entries.save(entry.withRecord(record))));
        poll.ended().forEach((id, status) -> entries.byId(id).filter(entry -> entry.terminal().isEmpty())
                .ifPresent(entry -> ended(entry, status)));
    }

    /** Records the task's terminal status and deletes its secrets blob (gc deletes it if this fails). */
    void ended(TaskEntry entry, JobStatus status) {
        entries.save(entry.withTerminal(status));
        entry.secretsBlob().ifPresent(blob -> {
            try {
                secrets.delete(blob);
            } catch (RuntimeException e) {
                logger.log(System.Logger.Level.WARNING, "backends.batch: the secrets blob " + blob + " of ended task "
                        + entry.ref() + " was not deleted (" + e.getMessage() + "); gantry gc deletes it later");
            }
        });
    }
}
