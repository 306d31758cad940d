package dev.gantry.backend.batch.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.ComputeNode;
import com.microsoft.azure.batch.protocol.models.StartTaskInformation;
import com.microsoft.azure.batch.protocol.models.TaskFailureInformation;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StartTaskFailuresTest {
    private static ComputeNode failed(String id, Integer exitCode, String code, String message) {
        return new ComputeNode().withId(id).withStartTaskInfo(new StartTaskInformation().withExitCode(exitCode)
                .withFailureInfo(code == null ? null : new TaskFailureInformation().withCode(code)
                        .withMessage(message)));
    }

    @Test
    void namesEachNodeWithItsExitCodeAndWhereToLookAndWhatToDo() {
        String reason = StartTaskFailures.waitingReason("gantry-d2", List.of(
                failed("tvm-1", 1, "FailureExitCode", "The start task exited with an exit code representing a failure"),
                failed("tvm-2", null, "ResourceFileDownloadFailed", "blob not found"))).orElseThrow();

        assertEquals("2 nodes of pool gantry-d2 failed the start task, Gantry's boot script that checks the node's "
                + "prerequisites, and Batch gives such a node no work (node tvm-1: exit code 1; node tvm-2: "
                + "ResourceFileDownloadFailed (blob not found)): read the node's startup/stderr.txt (az batch node "
                + "file download) and its step logs under /var/log/gantry/boot, fix the image or the boot steps, then "
                + "cancel this job and submit it again", reason);
    }

    @Test
    void namesThreeNodesAndCountsTheRest() {
        List<ComputeNode> nodes = IntStream.rangeClosed(1, 5).mapToObj(i -> failed("n" + i, 2, null, null)).toList();
        String reason = StartTaskFailures.waitingReason("p", nodes).orElseThrow();

        assertTrue(reason.startsWith("5 nodes of pool p"), reason);
        assertTrue(reason.contains("(node n1: exit code 2; node n2: exit code 2; node n3: exit code 2; and 2 more)"),
                reason);
    }

    @Test
    void aPoolWithoutFailedNodesHasNoReason() {
        assertEquals(Optional.empty(), StartTaskFailures.waitingReason("p", List.of()));
        assertEquals(Optional.empty(), StartTaskFailures.waitingReason("p", null));
    }
}
