package dev.gantry.backend.manual;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import java.time.Duration;
import java.util.function.Predicate;

/** Polls a job's status until a condition holds, failing the test at the deadline: the one wait the tests share. */
public final class JobPolling {
    private static final long POLL_MILLIS = 20;

    private JobPolling() {
    }

    public static JobStatus await(Backend backend, JobRef job, Predicate<JobStatus> until, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JobStatus status = backend.status(job);
        while (!until.test(status)) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not reach the expected state within " + timeout + "; last status " + status);
            }
            Thread.sleep(POLL_MILLIS);
            status = backend.status(job);
        }
        return status;
    }

    public static JobStatus awaitEnd(Backend backend, JobRef job, Duration timeout) throws InterruptedException {
        return await(backend, job, s -> s.state().isTerminal(), timeout);
    }
}
