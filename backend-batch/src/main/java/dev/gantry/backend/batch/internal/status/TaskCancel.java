package dev.gantry.backend.batch.internal.status;

import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.TaskGetOptions;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.StatusTable;
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

    private final AccountCalls calls;

    public TaskCancel(AccountCalls calls) {
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    public Outcome cancel(TrackedTask task) {
        if (task.ended().isPresent()) {
            return new AlreadyEnded();
        }
        if (task.held()) {
            return new EndedLocally(JobStatus.of(JobState.CANCELLED, "cancelled on request before Batch ran it "
                    + "(it was held for its dependencies)"));
        }
        if (terminate(calls, task.ref()) || endedByATerminate(task.ref())) {
            return new Terminated(task.record().withCancel());
        }
        return new AlreadyEnded();
    }

    /**
     * After {@code 409 TaskCompleted}: whether a terminate ended the task ({@code TaskEnded}). The task either ended
     * before this cancel, or this very cancel ended it and the reply was lost: the terminate, sent again by the retry
     * policy, then meets {@code TaskCompleted} of its own doing. Only a terminate ends a task as {@code TaskEnded}
     * (Gantry sets no wall-clock limit), so that tells which.
     */
    private boolean endedByATerminate(TaskRef ref) {
        CloudTask ended = calls.call("reading how task " + ref.id() + " ended", batch -> batch.tasks().get(
                ref.jobId(), ref.taskId(), new TaskGetOptions().withSelect("id,executionInfo")));
        return ended.executionInfo() != null && ended.executionInfo().failureInfo() != null
                && StatusTable.TASK_ENDED.equals(ended.executionInfo().failureInfo().code());
    }

    /** Terminates the task; false when it had already ended ({@code 409 TaskCompleted}). */
    static boolean terminate(AccountCalls calls, TaskRef ref) {
        return calls.callOrEmpty("terminating task " + ref.id(), refusal -> TASK_COMPLETED.equals(refusal.code()),
                batch -> {
                    batch.tasks().terminate(ref.jobId(), ref.taskId());
                    return true;
                }).isPresent();
    }
}
