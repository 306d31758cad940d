package dev.gantry.backend.batch.internal.status;

import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.util.Objects;

/**
 * Cancels a task: a held one ends where it is (Batch never saw it); one in Batch is terminated, and its record marks
 * Gantry's cancel, so that Batch's {@code TaskEnded} maps to CANCELLED rather than "ended by Batch".
 */
public final class TaskCancel {
    static final String TASK_COMPLETED = "TaskCompleted";

    /** What the cancel did, and what the caller persists. */
    public sealed interface Outcome {
    }

    /** The task had already ended: nothing was done. */
    public record AlreadyEnded() implements Outcome {
    }

    /** A held task: record this terminal status; nothing was sent to Batch. */
    public record EndedLocally(JobStatus status) implements Outcome {
    }

    /** The task was terminated in Batch: persist this record (its cancel marked). */
    public record Terminated(TaskRecord record) implements Outcome {
    }

    private final BatchServiceClient protocol;

    public TaskCancel(BatchServiceClient protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    public Outcome cancel(TrackedTask task) {
        if (task.ended().isPresent()) {
            return new AlreadyEnded();
        }
        if (task.held()) {
            return new EndedLocally(JobStatus.of(JobState.CANCELLED, "cancelled on request before Batch ran it "
                    + "(it was held for its dependencies)"));
        }
        return terminate(protocol, task.ref()) ? new Terminated(task.record().withCancel()) : new AlreadyEnded();
    }

    /** Terminates the task; false when it had already ended ({@code 409 TaskCompleted}). */
    static boolean terminate(BatchServiceClient protocol, TaskRef ref) {
        try {
            protocol.tasks().terminate(ref.jobId(), ref.taskId());
            return true;
        } catch (BatchErrorException e) {
            if (e.body() != null && TASK_COMPLETED.equals(e.body().code())) {
                return false;
            }
            throw e;
        }
    }
}
