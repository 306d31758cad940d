package dev.gantry.examples.platform;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.LogLine;
import dev.gantry.model.RunListener;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What platform code does with a run's events: prints each step as it changes and each line its jobs print, counts
 * evictions (a Spot eviction is not a failure: the step resumes), and remembers the steps that failed so that the
 * program can say which ones. Called on the run engine's threads (log lines: one thread per job), so its state is
 * thread-safe and every call returns at once.
 */
final class StepWatch implements RunListener {
    private final PrintStream out;
    private final AtomicInteger evictions = new AtomicInteger();
    private final Set<String> failed = new ConcurrentSkipListSet<>();

    StepWatch(PrintStream out) {
        this.out = out;
    }

    @Override
    public void stepChanged(StepRecord step) {
        out.println("step " + step.name() + ": " + step.state() + " (attempt " + step.attempts() + ")");
        if (step.state() == StepState.FAILED) {
            failed.add(step.name());
        }
    }

    @Override
    public void evicted(String runId, String step, Eviction eviction, boolean requeued) {
        evictions.incrementAndGet();
        out.println("step " + step + ": evicted" + (requeued ? ", requeued by the orchestrator" : "")
                + "; it resumes from its checkpoint");
    }

    @Override
    public boolean wantsLogs() {
        return true;
    }

    @Override
    public void logLine(String runId, String step, LogLine line) {
        out.println(step + " | " + line.text());
    }

    /** ", N eviction(s)" and the failed steps, or nothing when there was neither. */
    String summary() {
        return (evictions.get() == 0 ? "" : ", " + evictions.get() + " eviction(s)")
                + (failed.isEmpty() ? "" : ", failed steps: " + String.join(", ", failed));
    }
}
