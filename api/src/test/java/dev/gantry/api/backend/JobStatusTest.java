package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class JobStatusTest {
    private static final Eviction SPOT = new Eviction(Instant.parse("2026-12-01T10:00:00Z"), "Spot reclaimed");

    @Test
    void theV1FormHasNoEvictions() {
        JobStatus status = new JobStatus(JobState.RUNNING, OptionalInt.empty(), "running", Optional.empty(),
                Optional.empty());
        assertEquals(0, status.evictions());
        assertEquals(Optional.empty(), status.lastEviction());
        assertFalse(status.requeued());
        assertEquals(status, JobStatus.of(JobState.RUNNING, "running"));
    }

    @Test
    void anEvictionRaisesTheCountAndIsTheLast() {
        Eviction later = new Eviction(Instant.parse("2026-12-01T11:00:00Z"), "NODE_FAIL");
        JobStatus status = JobStatus.of(JobState.PENDING, "requeued").withEviction(SPOT).withEviction(later);
        assertEquals(2, status.evictions());
        assertEquals(Optional.of(later), status.lastEviction());
        assertTrue(status.requeued(), "a job waiting again after an eviction is a requeue");
    }

    @Test
    void aTerminalPreemptedJobIsNotARequeue() {
        JobStatus status = JobStatus.of(JobState.PREEMPTED, "evicted").withEviction(SPOT);
        assertFalse(status.requeued());
    }

    @Test
    void countAndLastEvictionMustAgree() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> JobStatus.of(JobState.RUNNING, "x").withEvictions(1, Optional.empty()));
        assertEquals("lastEviction must be present exactly when evictions > 0, got 1 evictions and no last eviction",
                none.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> JobStatus.of(JobState.RUNNING, "x").withEvictions(0, Optional.of(SPOT)));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> JobStatus.of(JobState.RUNNING, "x").withEvictions(-1, Optional.empty()));
        assertEquals("evictions must be >= 0, got -1", negative.getMessage());
    }

    @Test
    void preemptedIsTerminalAndFailedIsNotAnEviction() {
        assertTrue(JobState.PREEMPTED.isTerminal());
        assertFalse(JobState.PENDING.isTerminal());
        assertFalse(JobState.UNKNOWN.isTerminal());
    }
}
