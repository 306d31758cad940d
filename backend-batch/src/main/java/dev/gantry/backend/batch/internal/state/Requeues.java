package dev.gantry.backend.batch.internal.state;

import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.TaskState;
import dev.gantry.api.backend.Eviction;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether Batch requeued a task since Gantry last saw it running: a Spot node preempted under it. Neither
 * {@code retryCount} (unchanged by a requeue) nor {@code requeueCount} (only requeues users ask for) shows it, so
 * it is read from the task's run: seen running, it is back in {@code active} or {@code preparing} with
 * {@code previousState: running}; or it runs (or has ended) with another {@code executionInfo.startTime} or on
 * another node than the run Gantry saw.
 */
public final class Requeues {
    private Requeues() {
    }

    /** Whether an eviction happened between the recorded sighting and {@code task}. */
    public static boolean evicted(CloudTask task, TaskRecord record) {
        Optional<TaskRecord.Sighting> seen = record.lastRunning();
        if (seen.isEmpty() || task.state() == null) {
            return false;
        }
        if (task.state() == TaskState.ACTIVE || task.state() == TaskState.PREPARING) {
            return task.previousState() == TaskState.RUNNING || sighting(task).isPresent()
                    && !sighting(task).equals(seen);
        }
        return sighting(task).filter(now -> !now.equals(seen.get())).isPresent();
    }

    /** The run {@code task} reports, when it has started on a node. */
    public static Optional<TaskRecord.Sighting> sighting(CloudTask task) {
        Optional<Instant> start = task.executionInfo() == null ? Optional.empty()
                : BatchTimes.of(task.executionInfo().startTime());
        Optional<String> node = task.nodeInfo() == null ? Optional.empty()
                : Optional.ofNullable(task.nodeInfo().nodeId());
        return start.flatMap(s -> node.map(n -> new TaskRecord.Sighting(s, n)));
    }

    /**
     * The eviction to record: from the pool's preempted nodes when the task's last node is among them, else what is
     * known (Batch moved the task without a preempted node on the list: the node was lost another way).
     *
     * @param at when it was seen (the task's state transition time, or now)
     * @param preemptedNode the task's last node when the pool lists it as preempted
     * @param lastNode the node Gantry last saw the task on
     */
    public static Eviction eviction(Instant at, Optional<String> preemptedNode, String lastNode) {
        Objects.requireNonNull(lastNode, "lastNode");
        return preemptedNode.map(node -> new Eviction(at, "Batch node " + node + " preempted (Spot)"))
                .orElseGet(() -> new Eviction(at, "Batch requeued the task: node " + lastNode + " was lost"));
    }
}
