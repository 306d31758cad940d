package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A compute node of a pool: its own directory (Batch's node root: {@code shared/}, {@code startup/},
 * {@code workitems/}), its address, its state ({@code starting}, {@code waitingforstarttask}, {@code idle},
 * {@code running}, {@code starttaskfailed}, {@code preempted}, {@code unusable}) and the task it runs
 * (one slot per node).
 */
final class FakeNode {
    final String id;
    final String poolId;
    final Path root;
    final boolean dedicated;
    final Instant allocationTime;
    String address = "127.0.0.1";
    String state = "starting";
    Instant stateTransitionTime;
    ObjectNode startTaskInfo;
    /** The task (job id, task id) whose process, or subtask, runs here; null when idle. */
    String runningJobId;
    String runningTaskId;
    final List<NodeProcesses.Handle> processes = new ArrayList<>();
    /** The start task's process while it runs (killed with the node, never by a task's end). */
    NodeProcesses.Handle startTask;

    /** Kills everything the node runs: its task's processes and its start task. */
    void killAll() {
        processes.forEach(NodeProcesses.Handle::kill);
        processes.clear();
        if (startTask != null) {
            startTask.kill();
            startTask = null;
        }
    }

    FakeNode(String id, String poolId, Path root, boolean dedicated, Instant now) {
        this.id = id;
        this.poolId = poolId;
        this.root = root;
        this.dedicated = dedicated;
        this.allocationTime = now;
        this.stateTransitionTime = now;
    }

    void state(String next, Instant now) {
        state = next;
        stateTransitionTime = now;
    }

    boolean usable() {
        return !state.equals("preempted") && !state.equals("unusable") && !state.equals("starttaskfailed")
                && !state.equals("leavingpool");
    }

    ObjectNode json(String baseUrl) {
        ObjectNode node = Json.object();
        node.put("id", id);
        node.put("url", baseUrl + "/pools/" + poolId + "/nodes/" + id);
        node.put("state", state);
        node.put("schedulingState", "enabled");
        node.put("stateTransitionTime", Json.time(stateTransitionTime));
        node.put("lastBootTime", Json.time(allocationTime));
        node.put("allocationTime", Json.time(allocationTime));
        node.put("ipAddress", address);
        node.put("affinityId", "TVM:" + id);
        node.put("vmSize", "");
        node.put("isDedicated", dedicated);
        node.put("runningTasksCount", runningTaskId == null ? 0 : 1);
        node.put("runningTaskSlotsCount", runningTaskId == null ? 0 : 1);
        if (runningTaskId != null) {
            ObjectNode task = node.putArray("recentTasks").addObject();
            task.put("jobId", runningJobId);
            task.put("taskId", runningTaskId);
            task.put("taskUrl", baseUrl + "/jobs/" + runningJobId + "/tasks/" + runningTaskId);
            task.put("taskState", "running");
        }
        if (startTaskInfo != null) {
            node.set("startTaskInfo", startTaskInfo.deepCopy());
        }
        return node;
    }
}
