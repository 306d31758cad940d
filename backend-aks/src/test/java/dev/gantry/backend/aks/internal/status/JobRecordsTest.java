package dev.gantry.backend.aks.internal.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRecordsTest {
    private static final Instant T = Instant.parse("2026-01-02T03:04:05Z");

    @TempDir
    Path state;

    @Test
    void evictionsNeverFallOnceTheReplacedPodsAreGone() {
        JobRecords records = new JobRecords(state);
        Eviction eviction = new Eviction(T, "DisruptionTarget: DeletionByPodGC");
        JobStatus requeued = JobStatus.of(JobState.RUNNING, "running").withEviction(eviction);
        assertEquals(requeued, records.remember("j", requeued));
        JobStatus later = records.remember("j", JobStatus.of(JobState.RUNNING, "running"));
        assertEquals(1, later.evictions(), "the old pod's annotation is gone, the count is not");
        assertEquals(Optional.of(eviction), later.lastEviction());
        assertEquals(1, new JobRecords(state).remember("j", JobStatus.of(JobState.RUNNING, "x")).evictions(),
                "also for the next process");
    }

    @Test
    void aTerminalStatusIsKeptAndWinsOverWhatIsSeenLater() {
        JobRecords records = new JobRecords(state);
        JobStatus failed = new JobStatus(JobState.FAILED, OptionalInt.of(3), "exit code 3", Optional.of(T),
                Optional.of(T.plusSeconds(5)));
        records.remember("j", failed);
        assertEquals(Optional.of(failed), new JobRecords(state).terminal("j"));
        assertEquals(failed, records.remember("j", JobStatus.of(JobState.UNKNOWN, "gone")));
    }

    @Test
    void aCancelIsRecordedButTheJobIsCancelledOnlyOnceItsPodsAreGone() {
        JobRecords records = new JobRecords(state);
        records.cancel("j", T);
        assertTrue(records.terminal("j").isEmpty(), "not yet CANCELLED");
        assertEquals(Optional.of(T), records.cancelledAt("j"));
        JobStatus cancelled = records.cancelled("j", T);
        assertEquals(JobState.CANCELLED, cancelled.state());
        assertEquals(Optional.of(cancelled), records.terminal("j"));
    }
}
