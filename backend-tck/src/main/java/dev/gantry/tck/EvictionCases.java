package dev.gantry.tck;

import static dev.gantry.tck.Kit.POLL;
import static dev.gantry.tck.Kit.TICKER;
import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Evictions: a job that lost its capacity ends PREEMPTED or is requeued by the orchestrator, never FAILED. */
abstract class EvictionCases extends KitCases {
    EvictionCases(Kit kit) {
        super(kit);
    }

    @Test
    void evictedJobIsPreemptedNeverFailed() throws Exception {
        assumeTrue(fixture.evictionOutcome(backend) == EvictionHandling.ENDS_PREEMPTED,
                "this environment's orchestrator requeues evicted jobs: evictedJobIsRequeuedNeverFailed applies");
        JobRef job = kit.submit(workload("evict").command("sh", "-c", TICKER).build());
        kit.awaitOutput(job, out -> out.contains("tick"));
        fixture.evict(backend, job);
        JobStatus status = kit.awaitEnd(job);
        assertState(JobState.PREEMPTED, status);
        kit.assertSideEffectStopped(job);
        assertState(JobState.PREEMPTED, backend.status(job));
        assertEquals(1, status.evictions(), "a PREEMPTED job counts its eviction: " + status);
        assertTrue(status.lastEviction().isPresent(), "a PREEMPTED job says when and why: " + status);
        assertFalse(status.lastEviction().get().reason().isBlank(), "the eviction's reason: " + status);
    }

    /**
     * A requeueing orchestrator runs the evicted job again by itself: the job never reports FAILED or PREEMPTED, its
     * eviction count rises, and it completes. The job ticks on its first run and exits 0 on the run after.
     */
    @Test
    void evictedJobIsRequeuedNeverFailed() throws Exception {
        assumeTrue(fixture.evictionOutcome(backend) == EvictionHandling.REQUEUES,
                "this environment's orchestrator ends evicted jobs PREEMPTED: evictedJobIsPreemptedNeverFailed applies");
        String marker = fixture.sharedDirectory(context) + "/tck-requeue-" + UUID.randomUUID();
        JobRef job = kit.submit(workload("requeue").command("sh", "-c", "if [ -e \"$1\" ]; then echo second run; "
                + "exit 0; fi; : > \"$1\"; " + TICKER, "sh", marker).build());
        kit.awaitOutput(job, out -> out.contains("tick"));
        fixture.evict(backend, job);
        Set<JobState> seen = EnumSet.noneOf(JobState.class);
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        JobStatus status = backend.status(job);
        int highestCount = status.evictions();
        while (!status.state().isTerminal()) {
            seen.add(status.state());
            if (System.nanoTime() > deadline) {
                fail(job + " did not complete after its requeue within " + fixture.timeout() + "; last " + status);
            }
            Thread.sleep(POLL.toMillis());
            status = backend.status(job);
            assertTrue(status.evictions() >= highestCount, "the eviction count never falls: " + status);
            highestCount = status.evictions();
        }
        assertState(JobState.SUCCEEDED, status);
        assertFalse(seen.contains(JobState.FAILED), "a requeued job is never FAILED: states seen " + seen);
        assertTrue(status.evictions() >= 1, "the requeue is counted: " + status);
        assertTrue(status.lastEviction().isPresent(), "the last eviction says when and why: " + status);
    }
}
