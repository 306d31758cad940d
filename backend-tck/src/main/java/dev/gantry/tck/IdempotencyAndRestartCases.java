package dev.gantry.tck;

import static dev.gantry.tck.Kit.STDOUT;
import static dev.gantry.tck.Kit.TICKER;
import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.key;
import static dev.gantry.tck.Kit.textOf;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Idempotency and restarts: a retried submit never starts a second job, and jobs outlive the backend instance that
 * submitted them. A second instance, created by the fixture over the same configuration and state directory as a
 * later Gantry process creates it, finds the jobs of the first (status, logs, tail, cancel) and returns the same job
 * for a submit retried with the same key; closing the first neither stopped nor forgot them.
 */
abstract class IdempotencyAndRestartCases extends KitCases {
    IdempotencyAndRestartCases(Kit kit) {
        super(kit);
    }

    @Test
    void sameIdempotencyKeyYieldsOneJob() throws Exception {
        Plan plan = fixture.plan(workload("once").command("sh", "-c", "echo ran").build());
        String key = key("once");
        JobRef first = kit.submit(plan, key);
        JobRef second = kit.submit(plan, key);
        assertEquals(first, second);
        assertState(JobState.SUCCEEDED, kit.awaitEnd(first));
        JobRef third = kit.submit(plan, key);
        assertEquals(first, third, "a retry after the job ended still returns the same job");
        assertEquals(List.of("ran"), kit.lines(first, LogOptions.all()), "the command must have run exactly once");
    }

    @Test
    void differentKeysYieldDifferentJobs() throws Exception {
        Plan plan = fixture.plan(workload("twice").command("sh", "-c", "echo ran").build());
        JobRef first = kit.submit(plan, key("twice-a"));
        JobRef second = kit.submit(plan, key("twice-b"));
        assertNotEquals(first, second);
        assertState(JobState.SUCCEEDED, kit.awaitEnd(first));
        assertState(JobState.SUCCEEDED, kit.awaitEnd(second));
        assertEquals(List.of("ran"), kit.lines(second, LogOptions.all()));
    }

    /**
     * A running job outlives the instance that submitted it: after that instance is closed, a second one finds the
     * job still running and printing, tails and cancels it.
     */
    @Test
    void aRunningJobOutlivesTheInstanceThatSubmittedIt() throws Exception {
        JobRef job;
        try (Kit first = kit.anotherInstance()) {
            job = first.submit(workload("outlives").command("sh", "-c", TICKER).build());
            first.awaitOutput(job, out -> out.contains("tick"));
        }
        try (Kit second = kit.anotherInstance()) {
            assertState(JobState.RUNNING, found(second, job),
                    () -> "close() of the instance that submitted the job must leave it running");
            int printed = second.lines(job, STDOUT).size();
            // Still printing: the job's processes were not stopped with the instance.
            second.awaitOutput(job, out -> out.size() > printed);
            assertEquals(List.of("tick"), second.lines(job, new LogOptions(false, OptionalInt.of(1), true, false)),
                    "the tail of the job's output, read through the second instance");
            assertState(JobState.RUNNING, second.backend().statuses(List.of(job)).get(job));
            second.backend().cancel(job);
            assertState(JobState.CANCELLED, second.awaitEnd(job));
            second.assertSideEffectStopped(job);
        }
    }

    /** An ended job keeps its state, exit code and both streams of its output for an instance created after. */
    @Test
    void anEndedJobKeepsItsStatusAndLogsAfterARestart() throws Exception {
        JobRef job;
        try (Kit first = kit.anotherInstance()) {
            job = first.submit(workload("ended-restart").command("sh", "-c", "echo out1; echo err1 >&2; echo out2; "
                    + "exit 3").build());
            assertState(JobState.FAILED, first.awaitEnd(job));
        }
        try (Kit second = kit.anotherInstance()) {
            JobStatus status = found(second, job);
            assertState(JobState.FAILED, status);
            assertEquals(OptionalInt.of(3), status.exitCode(), "the exit code survives the restart: " + status);
            assertTrue(status.endedAt().isPresent(), "so does the time it ended: " + status);
            assertState(JobState.FAILED, second.backend().statuses(List.of(job)).get(job));
            List<LogLine> all = second.collect(job, LogOptions.all());
            if (second.backend().capabilities().mergedLogs()) {
                assertEquals(Set.of("out1", "err1", "out2"), Set.copyOf(textOf(all, LogLine.Stream.STDOUT)));
            } else {
                assertEquals(List.of("out1", "out2"), textOf(all, LogLine.Stream.STDOUT));
                assertEquals(List.of("err1"), textOf(all, LogLine.Stream.STDERR));
            }
            assertEquals(List.of("out2"), second.lines(job, new LogOptions(false, OptionalInt.of(1), true, false)));
            second.backend().cancel(job);
            assertState(JobState.FAILED, second.backend().status(job), () -> "cancel of an ended job keeps its state");
        }
    }

    /**
     * A submit retried with the same key through a second instance, after the first was closed before the job
     * ended (Gantry restarted after a submit whose reply was lost), returns the job the first started, which runs
     * once.
     */
    @Test
    void aSubmitRetriedThroughASecondInstanceReturnsTheSameJob() throws Exception {
        Plan plan = fixture.plan(workload("retry-restart").command("sh", "-c", "sleep 1; echo ran").build());
        String key = key("retry-restart");
        JobRef original;
        try (Kit first = kit.anotherInstance()) {
            original = first.submit(plan, key);
        }
        try (Kit second = kit.anotherInstance()) {
            assertEquals(original, second.submit(plan, key), "a submit retried through a second instance with the "
                    + "same idempotency key returns the job the first instance started");
            assertState(JobState.SUCCEEDED, second.awaitEnd(original));
            assertEquals(original, second.submit(plan, key), "a retry after the job ended still returns the same job");
            assertEquals(List.of("ran"), second.lines(original, LogOptions.all()),
                    "the command must have run exactly once");
        }
    }

    /** The job's status through a later instance; a job it does not know fails the case, saying what is owed. */
    private static JobStatus found(Kit later, JobRef job) {
        try {
            return later.backend().status(job);
        } catch (GantryException e) {
            if (e.code() == ErrorCode.JOB_NOT_FOUND) {
                fail("a second backend instance, created over the same configuration and state directory after the "
                        + "first was closed, does not know " + job + " (" + e.getMessage() + "): a backend keeps its "
                        + "jobs where a later process finds them (its state directory, the orchestrator), and close() "
                        + "never forgets them (docs/plugins.md, Restarts)");
            }
            throw e;
        }
    }
}
