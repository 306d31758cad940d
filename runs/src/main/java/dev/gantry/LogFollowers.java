package dev.gantry;

import dev.gantry.api.backend.LogOptions;
import dev.gantry.runs.jobs.JobService;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunListener;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows the output of a run's jobs while it is driven, for the listeners that {@link RunListener#wantsLogs() want
 * it}: each job's log from the moment its step is submitted until the job ends, on a thread of its own (daemon, so a
 * driver that returns early never waits on a job that still runs).
 */
final class LogFollowers implements RunListener, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LogFollowers.class.getName());
    /** How long a finished run waits for its jobs' last lines. */
    private static final long DRAIN_SECONDS = 10;

    private final String runId;
    private final RunStore store;
    private final JobService jobs;
    private final List<RunListener> listeners;
    private final Set<String> followed = new HashSet<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(daemons());

    LogFollowers(String runId, RunStore store, JobService jobs, List<RunListener> listeners) {
        this.runId = runId;
        this.store = store;
        this.jobs = jobs;
        this.listeners = listeners.stream().filter(RunListener::wantsLogs).toList();
    }

    /** Whether any listener wants logs: when none does, nothing is followed. */
    boolean needed() {
        return !listeners.isEmpty();
    }

    @Override
    public synchronized void stepChanged(StepRecord step) {
        if (step.state() != StepState.SUBMITTED && step.state() != StepState.RUNNING) {
            return;
        }
        String jobId = store.attempts(runId).stream().filter(a -> a.step().equals(step.name()))
                .filter(a -> a.number() == step.attempts()).map(AttemptRecord::jobId).findFirst().orElse(null);
        if (jobId == null || !followed.add(jobId)) {
            return;
        }
        threads.execute(() -> follow(step.name(), jobId));
    }

    private void follow(String step, String jobId) {
        try {
            // The step is recorded SUBMITTED before its backend answers: wait for the job's reference.
            while (jobs.find(jobId).flatMap(job -> job.ref()).isEmpty()) {
                Thread.sleep(200);
            }
            jobs.logs(jobId, LogOptions.following(), line -> {
                for (RunListener listener : listeners) {
                    try {
                        listener.logLine(runId, step, line);
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "a run listener failed on a log line: " + e, e);
                    }
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // The job's output may not be there yet (a job still being placed); the run goes on without it.
            LOG.log(Level.FINE, "cannot follow the output of job " + jobId + ": " + e.getMessage(), e);
        }
    }

    /** Lets the jobs' last lines arrive, then stops following. */
    @Override
    public void close() {
        threads.shutdown();
        try {
            if (!threads.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemons() {
        return task -> {
            Thread thread = new Thread(task, "gantry-run-logs");
            thread.setDaemon(true);
            return thread;
        };
    }
}
