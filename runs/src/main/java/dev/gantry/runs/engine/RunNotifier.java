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
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells {@link RunListener}s what happened, reading the run's history from the store so that they hear every event
 * once, numbered, including those another process wrote; remembers which runs were asked to cancel.
 */
final class RunNotifier {
    private static final Logger LOG = Logger.getLogger(RunNotifier.class.getName());

    private final RunStore store;
    private final List<RunListener> listeners;
    private final Map<String, Long> seen = new HashMap<>();
    private final Set<String> cancelAsked = new HashSet<>();

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
            }
            each(listener -> listener.event(event));
        }
    }

    /** Whether an event seen so far asked for the run to be cancelled. */
    boolean cancelAsked(String runId) {
        return cancelAsked.contains(runId);
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
