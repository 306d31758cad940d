package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SubmitOptionsTest {
    private static final JobRef A = new JobRef("slurm", "101");
    private static final JobRef B = new JobRef("slurm", "102");

    @Test
    void theV1FormIsAFirstAttemptWithoutDependencies() {
        SubmitOptions options = SubmitOptions.withKey("run-1.step-a");
        assertEquals(1, options.attempt());
        assertFalse(options.resume());
        assertEquals(List.of(), options.dependencies());
        assertEquals(new SubmitOptions("run-1.step-a", 1, false, List.of()), options);
    }

    @Test
    void withersChangeOneThingEach() {
        SubmitOptions options = SubmitOptions.withKey("k").attempt(3).resuming(true)
                .dependingOn(JobDependency.afterSuccess(A), JobDependency.afterAny(B));
        assertEquals("k", options.idempotencyKey());
        assertEquals(3, options.attempt());
        assertTrue(options.resume());
        assertEquals(List.of(new JobDependency(A, JobDependency.Condition.AFTER_SUCCESS),
                new JobDependency(B, JobDependency.Condition.AFTER_ANY)), options.dependencies());
        assertEquals(List.of(), options.dependingOn(List.of()).dependencies());
    }

    @Test
    void badValuesAreRefusedNamingThem() {
        assertEquals("attempt must be 1 or more, got 0",
                assertThrows(IllegalArgumentException.class, () -> SubmitOptions.withKey("k").attempt(0))
                        .getMessage());
        assertEquals("idempotency key must be 1-128 letters, digits, '.', '_' or '-', got 'a b'",
                assertThrows(IllegalArgumentException.class, () -> SubmitOptions.withKey("a b")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> SubmitOptions.withKey("x".repeat(129)));
    }

    @Test
    void dependenciesAreSatisfiedByTheirCondition() {
        JobDependency ok = JobDependency.afterSuccess(A);
        JobDependency any = JobDependency.afterAny(A);
        assertTrue(ok.satisfiedBy(JobState.SUCCEEDED));
        for (JobState state : List.of(JobState.FAILED, JobState.CANCELLED, JobState.PREEMPTED, JobState.RUNNING,
                JobState.PENDING, JobState.UNKNOWN)) {
            assertFalse(ok.satisfiedBy(state), state.name());
        }
        for (JobState state : JobState.values()) {
            assertEquals(state.isTerminal(), any.satisfiedBy(state), state.name());
        }
    }
}
