package dev.gantry.backend.batch.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.CloudTask;
import dev.gantry.api.backend.Eviction;
import dev.gantry.backend.batch.internal.render.WireJson;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequeuesTest {
    private static final String START = "2026-06-01T10:02:00Z";
    private static final TaskRecord.Sighting SEEN = new TaskRecord.Sighting(Instant.parse(START), "tvmps_a_p");
    private static final TaskRecord RAN = TaskRecord.submitted("python3").withLastRunning(Optional.of(SEEN));

    private static CloudTask task(String state, String previous, String start, String node) {
        StringBuilder json = new StringBuilder("{\"id\":\"t\",\"state\":\"").append(state).append('"');
        if (previous != null) {
            json.append(",\"previousState\":\"").append(previous).append('"');
        }
        json.append(",\"executionInfo\":{\"retryCount\":0,\"requeueCount\":0");
        if (start != null) {
            json.append(",\"startTime\":\"").append(start).append('"');
        }
        json.append('}');
        if (node != null) {
            json.append(",\"nodeInfo\":{\"nodeId\":\"").append(node).append("\"}");
        }
        return WireJson.read(json.append('}').toString(), CloudTask.class);
    }

    @Test
    void aTaskSeenRunningThatIsBackInTheQueueWasEvicted() {
        assertTrue(Requeues.evicted(task("active", "running", START, "tvmps_a_p"), RAN));
        assertTrue(Requeues.evicted(task("preparing", "active", START, "tvmps_b_p"), RAN), "on another node now");
    }

    @Test
    void aTaskRunningAgainWithAnotherStartOrNodeWasEvicted() {
        assertTrue(Requeues.evicted(task("running", "preparing", "2026-06-01T10:25:00Z", "tvmps_a_p"), RAN));
        assertTrue(Requeues.evicted(task("running", "preparing", START, "tvmps_b_p"), RAN));
        assertTrue(Requeues.evicted(task("completed", "running", "2026-06-01T10:25:00Z", "tvmps_b_p"), RAN),
                "requeued and ended between two polls");
    }

    @Test
    void neitherCountNorAFirstRunIsAnEviction() {
        assertFalse(Requeues.evicted(task("running", "preparing", START, "tvmps_a_p"), RAN), "the same run");
        assertFalse(Requeues.evicted(task("completed", "running", START, "tvmps_a_p"), RAN), "it ended");
        assertFalse(Requeues.evicted(task("active", null, null, null), TaskRecord.submitted("x")), "never seen run");
        assertFalse(Requeues.evicted(task("active", "running", START, "tvmps_a_p"),
                TaskRecord.submitted("x")), "not seen running by Gantry: nothing to compare");
        TaskRecord counted = RAN.withEviction(new Eviction(Instant.parse(START), "x"));
        assertFalse(Requeues.evicted(task("active", "running", START, "tvmps_a_p"), counted),
                "an eviction is counted once: the run it ended is forgotten");
        assertEquals(Optional.of(SEEN), Requeues.sighting(task("running", null, START, "tvmps_a_p")));
    }

    @Test
    void theEvictionSaysWhichNodeWasPreempted() {
        Instant at = Instant.parse("2026-06-01T10:20:00Z");
        assertEquals(new Eviction(at, "Batch node tvmps_a_p preempted (Spot)"),
                Requeues.eviction(at, Optional.of("tvmps_a_p"), "tvmps_a_p"));
        assertEquals(new Eviction(at, "Batch requeued the task: node tvmps_a_p was lost"),
                Requeues.eviction(at, Optional.empty(), "tvmps_a_p"));
    }
}
