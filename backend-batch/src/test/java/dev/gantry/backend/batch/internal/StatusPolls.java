package dev.gantry.backend.batch.internal;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A backend's jobs watched as a run's driver watches them: status polled until something holds, output read. */
final class StatusPolls {
    static final Duration LIMIT = Duration.ofSeconds(30);

    private StatusPolls() {
    }

    /** Polls the job's status every 100 ms until {@code condition} holds; fails after {@link #LIMIT}. */
    static JobStatus until(Backend backend, JobRef job, Predicate<JobStatus> condition, String what)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(LIMIT);
        JobStatus status = backend.status(job);
        while (!condition.test(status)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(job.id() + " was never " + what + " within " + LIMIT + "; last " + status);
            }
            Thread.sleep(100);
            status = backend.status(job);
        }
        return status;
    }

    static JobStatus ended(Backend backend, JobRef job) throws InterruptedException {
        return until(backend, job, status -> status.state().isTerminal(), "ended");
    }

    static JobStatus running(Backend backend, JobRef job) throws InterruptedException {
        return until(backend, job, status -> status.state() == JobState.RUNNING, "running");
    }

    /** Every line of the job's output as {@code logs} delivers it, both streams. */
    static List<LogLine> output(Backend backend, JobRef job) throws InterruptedException {
        List<LogLine> lines = new ArrayList<>();
        backend.logs(job, LogOptions.all(), lines::add);
        return lines;
    }
}
