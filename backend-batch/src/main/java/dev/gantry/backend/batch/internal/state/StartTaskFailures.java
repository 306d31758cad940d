package dev.gantry.backend.batch.internal.state;

import com.microsoft.azure.batch.protocol.models.ComputeNode;
import com.microsoft.azure.batch.protocol.models.StartTaskInformation;
import com.microsoft.azure.batch.protocol.models.TaskFailureInformation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A pool's nodes whose start task failed, as the message of its waiting tasks. Gantry's start task is the boot script
 * that checks the node's prerequisites (images/BootScript) and Batch waits for its success: a node that fails it stays
 * in the pool in {@code starttaskfailed} and is given no work, so a task that needs it waits with nothing else saying
 * why. Like {@link ResizeErrors}, this only explains the wait: Batch may still add nodes that pass.
 */
public final class StartTaskFailures {
    /** How many failed nodes the message names; the count says how many there are. */
    static final int NAMED = 3;

    private StartTaskFailures() {
    }

    /** The message, or empty when no node of the pool failed its start task. */
    public static Optional<String> waitingReason(String poolId, List<ComputeNode> failed) {
        if (failed == null || failed.isEmpty()) {
            return Optional.empty();
        }
        String named = failed.stream().limit(NAMED).map(StartTaskFailures::describe)
                .collect(Collectors.joining("; "));
        String more = failed.size() > NAMED ? "; and " + (failed.size() - NAMED) + " more" : "";
        String count = failed.size() == 1 ? "1 node" : failed.size() + " nodes";
        return Optional.of(String.format(Locale.ROOT, "%s of pool %s failed the start task, Gantry's boot script that "
                + "checks the node's prerequisites, and Batch gives such a node no work (%s%s): read the node's "
                + "startup/stderr.txt (az batch node file download) and its step logs under /var/log/gantry/boot, fix "
                + "the image or the boot steps, then cancel this job and submit it again", count, poolId, named, more));
    }

    private static String describe(ComputeNode node) {
        StartTaskInformation info = node.startTaskInfo();
        StringBuilder text = new StringBuilder("node ").append(node.id());
        if (info == null) {
            return text.toString();
        }
        if (info.exitCode() != null) {
            text.append(": exit code ").append(info.exitCode());
        }
        TaskFailureInformation failure = info.failureInfo();
        if (failure != null && failure.code() != null && !"FailureExitCode".equals(failure.code())) {
            // FailureExitCode only repeats the exit code; any other code (a resource file, the user) says more.
            text.append(info.exitCode() == null ? ": " : ", ").append(failure.code());
            if (failure.message() != null) {
                text.append(" (").append(failure.message()).append(')');
            }
        }
        return text.toString();
    }
}
