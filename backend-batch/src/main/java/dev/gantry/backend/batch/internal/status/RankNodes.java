package dev.gantry.backend.batch.internal.status;

import com.microsoft.azure.batch.protocol.models.SubtaskInformation;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which rank ran on which node of a multi-node task. Batch does not say: rank 0 is the primary's, and the others
 * follow each node's place in {@code AZ_BATCH_HOST_LIST}, which only the node knows. Each rank writes
 * {@code rank-N.stdout} into the task's shared directory on its node ({@code CoordinationCommand}), so a node's rank
 * is the N whose file its task root holds: one file-properties call per guess, only for the nodes asked about.
 */
public final class RankNodes {
    private final AccountCalls calls;

    public RankNodes(AccountCalls calls) {
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /** The subtasks of a multi-instance task (the primary is not among them). */
    public List<SubtaskInformation> subtasks(TaskRef ref) {
        List<SubtaskInformation> value = calls.call("listing the subtasks of task " + ref.id(),
                batch -> batch.tasks().listSubtasks(ref.jobId(), ref.taskId()).value());
        return value == null ? List.of() : value;
    }

    /**
     * The rank of each given subtask's node, where its rank file is there.
     *
     * @param nodes how many nodes the task runs on
     */
    public Map<String, Integer> ranks(String poolId, List<SubtaskInformation> subtasks, int nodes) {
        Map<String, Integer> ranks = new LinkedHashMap<>();
        for (SubtaskInformation subtask : subtasks) {
            if (subtask.nodeInfo() == null || subtask.nodeInfo().nodeId() == null) {
                continue;
            }
            String nodeId = subtask.nodeInfo().nodeId();
            for (int rank = 1; rank < nodes && !ranks.containsKey(nodeId); rank++) {
                if (!ranks.containsValue(rank) && exists(poolId, nodeId, rankFile(subtask, rank, "stdout"))) {
                    ranks.put(nodeId, rank);
                }
            }
        }
        return ranks;
    }

    /** The node-file path of a rank's file in the subtask's task root ({@code workitems/JOB/job-1/TASK}). */
    public static String rankFile(SubtaskInformation subtask, int rank, String stream) {
        return subtask.nodeInfo().taskRootDirectory() + "/rank-" + rank + "." + stream;
    }

    private boolean exists(String poolId, String nodeId, String path) {
        return calls.callOrEmpty("reading " + path + " on node " + nodeId + " of pool " + poolId,
                AccountCalls.notFound(), batch -> {
                    batch.files().getPropertiesFromComputeNode(poolId, nodeId, path);
                    return true;
                }).isPresent();
    }
}
