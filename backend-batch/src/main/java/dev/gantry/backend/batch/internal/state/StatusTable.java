package dev.gantry.backend.batch.internal.state;

import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.TaskExecutionInformation;
import com.microsoft.azure.batch.protocol.models.TaskFailureInformation;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.Launcher;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every Batch task state as a Gantry status, with what Gantry recorded (its cancel, evictions, the program's name):
 * <ul>
 *   <li>{@code active}: PENDING (with the pool's resize errors and its nodes that failed their start task, when there
 *       are any);</li>
 *   <li>{@code preparing}: PROVISIONING;</li>
 *   <li>{@code running}: RUNNING;</li>
 *   <li>{@code completed}: SUCCEEDED with exit code 0; CANCELLED when Gantry cancelled it and it did not succeed;
 *       FAILED ("ended by Batch") for {@code TaskEnded} without Gantry's cancel (a wall-clock limit); FAILED with
 *       Batch's code and message for any other {@code failureInfo} ({@code CommandProgramNotFound},
 *       {@code BlobAccessDenied}, ...); FAILED naming the rank when a subtask of a multi-node task failed (whatever
 *       the primary's exit code); FAILED with the exit code otherwise, naming a missing program (127) or a
 *       signal.</li>
 * </ul>
 * A requeued task is PENDING or RUNNING again with its evictions counted, never PREEMPTED (REQUEUES).
 */
public final class StatusTable {
    /** The failure code of a task a terminate ended (Gantry's cancel, a job's terminate). */
    public static final String TASK_ENDED = "TaskEnded";
    static final String FAILURE_EXIT_CODE = "FailureExitCode";

    private StatusTable() {
    }

    /**
     * The status.
     *
     * @param task the task as listed
     * @param record what Gantry recorded
     * @param waitingReason why no node runs it yet (the pool's resize errors, {@link ResizeErrors}; its nodes that
     *     failed their start task, {@link StartTaskFailures}), if known
     * @param rankFailure which rank of a multi-node task failed ({@link RankFailures}), if one did
     */
    public static JobStatus map(CloudTask task, TaskRecord record, Optional<String> waitingReason,
                                Optional<RankFailures.Failure> rankFailure) {
        TaskExecutionInformation run = task.executionInfo();
        Optional<Instant> started = run == null ? Optional.empty() : BatchTimes.of(run.startTime());
        Optional<Instant> ended = run == null ? Optional.empty() : BatchTimes.of(run.endTime());
        JobStatus status = switch (task.state() == null ? "" : task.state().toString()) {
            case "active" -> new JobStatus(JobState.PENDING, OptionalInt.empty(), waitingReason.map(r -> "waiting "
                    + "for a node: " + r).orElse(record.evictions() > 0 ? "requeued by Batch, waiting for a node"
                    : "waiting for a node"), started, Optional.empty());
            case "preparing" -> new JobStatus(JobState.PROVISIONING, OptionalInt.empty(), "preparing on node "
                    + node(task), started, Optional.empty());
            case "running" -> new JobStatus(JobState.RUNNING, OptionalInt.empty(), "running on node " + node(task),
                    started, Optional.empty());
            case "completed" -> completed(task, record, rankFailure, started, ended);
            default -> new JobStatus(JobState.UNKNOWN, OptionalInt.empty(), "Batch reports task state '"
                    + task.state() + "', which this version of Gantry does not know", started, Optional.empty());
        };
        return status.withEvictions(record.evictions(), record.lastEviction());
    }

    private static JobStatus completed(CloudTask task, TaskRecord record, Optional<RankFailures.Failure> rankFailure,
                                       Optional<Instant> started, Optional<Instant> ended) {
        TaskExecutionInformation run = task.executionInfo();
        OptionalInt exit = run == null || run.exitCode() == null ? OptionalInt.empty()
                : OptionalInt.of(run.exitCode());
        Optional<TaskFailureInformation> failure = Optional.ofNullable(run).map(TaskExecutionInformation::failureInfo);
        if (rankFailure.isPresent() && !record.cancelled()) {
            // A failed subtask fails the whole task, whatever the primary's own exit code says.
            OptionalInt rankExit = rankFailure.get().exitCode().isPresent() ? rankFailure.get().exitCode() : exit;
            return new JobStatus(JobState.FAILED, rankExit, rankFailure.get().message(), started, ended);
        }
        if (failure.isEmpty() && exit.isPresent() && exit.getAsInt() == 0) {
            return new JobStatus(JobState.SUCCEEDED, exit, "exited with code 0", started, ended);
        }
        if (record.cancelled()) {
            return new JobStatus(JobState.CANCELLED, exit, "cancelled on request", started, ended);
        }
        // A non-zero exit comes with a failureInfo of its own (FailureExitCode): the exit code says more.
        failure = failure.filter(f -> !FAILURE_EXIT_CODE.equals(f.code()) || exit.isEmpty());
        if (failure.isPresent()) {
            String code = String.valueOf(failure.get().code());
            String message = failure.get().message() == null ? "" : ": " + failure.get().message();
            return new JobStatus(JobState.FAILED, exit, TASK_ENDED.equals(code) ? "ended by Batch" + message
                    + " (for instance its wall-clock limit)" : code + message, started, ended);
        }
        if (exit.isEmpty()) {
            return new JobStatus(JobState.FAILED, exit, "completed without an exit code", started, ended);
        }
        return new JobStatus(JobState.FAILED, exit, exited(exit.getAsInt(), record.program()), started, ended);
    }

    /** The words of the manual backend for the same exit codes. */
    static String exited(int code, String program) {
        if (code == 127) {
            return "command not found: " + program;
        }
        if (code == Launcher.LAUNCH_FAILED) {
            return "exited with code " + code + " (Gantry's launcher could not start " + program + ": see stderr.txt)";
        }
        return code > 128 && code < 160 ? "exited with code " + code + " (killed by signal " + (code - 128) + ")"
                : "exited with code " + code;
    }

    private static String node(CloudTask task) {
        return task.nodeInfo() == null || task.nodeInfo().nodeId() == null ? "(not yet known)"
                : task.nodeInfo().nodeId();
    }
}
