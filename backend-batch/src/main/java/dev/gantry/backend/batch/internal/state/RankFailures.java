package dev.gantry.backend.batch.internal.state;

import com.microsoft.azure.batch.protocol.models.SubtaskInformation;
import com.microsoft.azure.batch.protocol.models.SubtaskState;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which node of a multi-node task failed, from its subtasks (list-subtasks). A rank other than 0 runs in its node's
 * coordination command and exits with it, so a failed subtask is a failed rank; its rank number is in that node's
 * {@code rank-N.stderr} ("gantry: rank N exited with code C"), which the logs read. Rank 0 fails the primary itself.
 */
public final class RankFailures {
    /**
     * A failed rank.
     *
     * @param message which rank, on which node, and how it failed
     * @param exitCode its exit code, when it exited with one
     */
    public record Failure(String message, OptionalInt exitCode) {
    }

    private RankFailures() {
    }

    /**
     * The first failed subtask (by id), or empty when none failed.
     *
     * @param rankOfNode each node's rank where known (the {@code rank-N.*} files in its task directory say it)
     */
    public static Optional<Failure> describe(List<SubtaskInformation> subtasks, Map<String, Integer> rankOfNode) {
        return subtasks.stream()
                .filter(s -> s.state() == SubtaskState.COMPLETED && s.exitCode() != null && s.exitCode() != 0
                        || s.failureInfo() != null)
                .min(Comparator.comparing(s -> s.id() == null ? Integer.MAX_VALUE : s.id()))
                .map(subtask -> describe(subtask, rankOfNode));
    }

    private static Failure describe(SubtaskInformation subtask, Map<String, Integer> rankOfNode) {
        String nodeId = subtask.nodeInfo() == null ? null : subtask.nodeInfo().nodeId();
        boolean byExitCode = subtask.exitCode() != null && (subtask.failureInfo() == null
                || StatusTable.FAILURE_EXIT_CODE.equals(subtask.failureInfo().code()));
        String how = byExitCode ? "exited with code " + subtask.exitCode() : subtask.failureInfo().code()
                + (subtask.failureInfo().message() == null ? "" : ": " + subtask.failureInfo().message());
        Integer rank = nodeId == null ? null : rankOfNode.get(nodeId);
        String where = nodeId == null ? "an unknown node" : "node " + nodeId;
        String message = rank != null ? "rank " + rank + " (" + where + ", subtask " + subtask.id() + ") failed: " + how
                : "a rank on " + where + " (subtask " + subtask.id() + ") failed: " + how
                + "; its rank-N.stderr names the rank";
        return new Failure(message, subtask.exitCode() == null ? OptionalInt.empty()
                : OptionalInt.of(subtask.exitCode()));
    }
}
