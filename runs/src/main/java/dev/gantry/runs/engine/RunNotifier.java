package dev.gantry.runs.engine;

import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepRecord;
import dev.gantry.api.backend.Eviction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells {@link RunListener}s what happened, reading the run's history from the store so that they hear every event
 * once, numbered, including those another process wrote; remembers which runs were asked to cancel, and which budgets
 * were warned of or reached. What it remembers comes from the stored history alone (a new notifier reads all of it
 * first), so a process that takes a run over knows what the one before it said and did.
 */
final class RunNotifier {
    private static final Logger LOG = Logger.getLogger(RunNotifier.class.getName());

    private final RunStore store;
    private final List<RunListener> listeners;
    private final Map<String, Long> seen = new HashMap<>();
    private final Set<String> cancelAsked = new HashSet<>();
    /** Budgets warned of, by {@link #budgetKey}. */
    private final Set<String> budgetWarned = new HashSet<>();
    /** Budgets reached, by {@link #budgetKey}: the event's detail. */
    private final Map<String, String> budgetReached = new HashMap<>();

    RunNotifier(RunStore store, List<RunListener> listeners) {
        this.store = store;
        this.listeners = List.copyOf(listeners);
    }

    /** Delivers the run's events stored since the last call (all of them the first time). */
    void catchUp(String runId) {
        List<RunEvent> events = store.eventsAfter(runId, seen.getOrDefault(runId, 0L));
        for (RunEvent event : events) {
            seen.put(runId, event.sequence());
            if (event.step().isEmpty() && event.kind().equals(RunEvent.CANCELLING)) {
                cancelAsked.add(runId);
            } else if (event.step().isEmpty() && event.kind().equals(RunEvent.RETRY)) {
                cancelAsked.remove(runId); // a retry after a cancel runs the run again
                // ...and after a budget stop, under the budget as its spend then stands
                budgetReached.keySet().removeIf(key -> key.startsWith(runId + "\n"));
            } else if (event.kind().equals(RunEvent.BUDGET_WARNING)) {
                budgetWarned.add(budgetKey(runId, event.step()));
            } else if (event.kind().equals(RunEvent.BUDGET_REACHED)) {
                budgetReached.put(budgetKey(runId, event.step()), event.detail());
            }
            each(listener -> listener.event(event));
        }
    }

    /** Whether an event seen so far asked for the run to be cancelled. */
    boolean cancelAsked(String runId) {
        return cancelAsked.contains(runId);
    }

    /** Whether the run's history holds a warning of this budget (the run's, or the job's). */
    boolean budgetWarned(String runId, Optional<String> job) {
        return budgetWarned.contains(budgetKey(runId, job));
    }

    /** The detail of the run's history's {@code budget-reached} event of this budget, if it has one. */
    Optional<String> budgetReached(String runId, Optional<String> job) {
        return Optional.ofNullable(budgetReached.get(budgetKey(runId, job)));
    }

    private static String budgetKey(String runId, Optional<String> job) {
        return runId + "\n" + job.orElse("");
    }

    void stepChanged(StepRecord step) {
        each(listener -> listener.stepChanged(step));
    }

    void evicted(String runId, String step, Eviction eviction, boolean requeued) {
        each(listener -> listener.evicted(runId, step, eviction, requeued));
    }

    private void each(java.util.function.Consumer<RunListener> call) {
        for (RunListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                // A listener is the caller's code: its failure is reported, and the run goes on.
                LOG.log(Level.WARNING, "a run listener failed: " + e, e);
            }
        }
    }
}
