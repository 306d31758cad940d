package dev.gantry.tck;

import static dev.gantry.tck.Kit.TICKER;
import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Lifecycle and cancel: how a job ends (its exit code, a missing program), and cancel of a running, an ended and a
 * pending job.
 */
abstract class LifecycleCases extends KitCases {
    LifecycleCases(Kit kit) {
        super(kit);
    }

    @Test
    void exitZeroSucceeds() throws Exception {
        JobStatus status = kit.awaitEnd(kit.submit(workload("exit0").command("sh", "-c", "exit 0").build()));
        assertState(JobState.SUCCEEDED, status);
        assertEquals(OptionalInt.of(0), status.exitCode());
        assertTrue(status.endedAt().isPresent(), "an ended job reports when it ended: " + status);
    }

    @Test
    void nonZeroExitFailsWithItsCode() throws Exception {
        JobStatus status = kit.awaitEnd(kit.submit(workload("exit3").command("sh", "-c", "exit 3").build()));
        assertState(JobState.FAILED, status);
        assertEquals(OptionalInt.of(3), status.exitCode());
    }

    @Test
    void missingCommandFailsNamingIt() throws Exception {
        String program = "gantry-tck-no-such-command";
        JobStatus status = kit.awaitEnd(kit.submit(workload("missing").command(program, "x").build()));
        assertState(JobState.FAILED, status);
        assertTrue(status.message().contains(program), "the message must name the missing command: " + status);
    }

    @Test
    void cancelStopsARunningJob() throws Exception {
        JobRef job = kit.submit(workload("cancel").command("sh", "-c", TICKER).build());
        kit.awaitOutput(job, out -> out.contains("tick"));
        assertEquals(JobState.RUNNING, backend.status(job).state());
        backend.cancel(job);
        JobStatus status = kit.awaitEnd(job);
        assertState(JobState.CANCELLED, status);
        kit.assertSideEffectStopped(job);
        assertState(JobState.CANCELLED, backend.status(job));
        backend.cancel(job); // idempotent
        assertState(JobState.CANCELLED, backend.status(job));
    }

    @Test
    void cancelOfAnEndedJobKeepsItsState() throws Exception {
        JobRef job = kit.submit(workload("cancel-ended").command("sh", "-c", "exit 0").build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        backend.cancel(job);
        JobStatus status = backend.status(job);
        assertState(JobState.SUCCEEDED, status);
        assertEquals(OptionalInt.of(0), status.exitCode());
    }

    /** A job held back (here by a dependency on a running job) is cancelled before it ever starts. */
    @Test
    void cancelOfAPendingJob() throws Exception {
        // Without native dependencies the kit has no way to hold a job pending on the backend.
        kit.assumeDeclared(Capabilities::nativeDependencies, "native dependencies");
        JobRef blocker = kit.submit(workload("pending-blocker").command("sh", "-c", TICKER).build());
        // Running first: a scheduler may take a moment to start it, and the case is about the dependent alone.
        kit.awaitOutput(blocker, out -> out.contains("tick"));
        String ran = fixture.sharedDirectory(context) + "/tck-pending-" + UUID.randomUUID();
        JobRef pending = kit.submitDependent(workload("pending").command("sh", "-c", ": > \"$1\"", "sh", ran).build(),
                JobDependency.afterSuccess(blocker));
        assertState(JobState.PENDING, backend.status(pending));
        backend.cancel(pending);
        assertState(JobState.CANCELLED, kit.awaitEnd(pending));
        assertEquals(JobState.RUNNING, backend.status(blocker).state(), "cancelling the dependent leaves A running");
        backend.cancel(blocker);
        assertState(JobState.CANCELLED, kit.awaitEnd(blocker));
        Thread.sleep(500);
        assertState(JobState.CANCELLED, backend.status(pending));
        kit.assertNeverCreated(ran, "the cancelled pending job must never have run");
    }
}
