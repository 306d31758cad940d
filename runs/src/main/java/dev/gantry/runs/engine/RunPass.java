package dev.gantry.runs.engine;

import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunRecord;
import dev.gantry.core.runs.RunScheduler;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One look at a run by {@link RunEngine}: the run's steps and latest attempts as stored when the look began, the
 * changes the look makes to them, and the events it has to say, written together by {@link #flush}.
 */
final class RunPass {
    final RunRecord run;
    final Instant now;
    /** By job name, in the plan's order (dependencies first). */
    final Map<String, StepRecord> steps = new LinkedHashMap<>();
    private final Map<String, WorkflowPlan.PlannedStep> planned = new LinkedHashMap<>();
    private final Map<String, List<AttemptRecord>> attempts = new LinkedHashMap<>();
    private final Map<String, StepRecord> changedSteps = new LinkedHashMap<>();
    private final Map<String, AttemptRecord> changedAttempts = new LinkedHashMap<>();
    private final List<RunEvent> events = new ArrayList<>();
    private final RunStore store;
    private final RunNotifier notifier;
    private final WorkflowDefinition workflow;
    /** Outputs published so far, by {@code STEP.NAME}; read on first use. */
    private Map<String, String> outputs;

    RunPass(RunRecord run, WorkflowPlan plan, List<StepRecord> stored, List<AttemptRecord> storedAttempts,
            Instant now, RunStore store, RunNotifier notifier) {
        this.run = run;
        this.now = now;
        this.store = store;
        this.notifier = notifier;
        this.workflow = plan.workflow();
        Map<String, StepRecord> byName = new LinkedHashMap<>();
        stored.forEach(step -> byName.put(step.name(), step));
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            String name = step.instance().name();
            StepRecord record = byName.get(name);
            if (record == null) {
                throw new IllegalStateException("run " + run.id() + " has no step " + name + " of its workflow: "
                        + "its records do not match the spec they were made from");
            }
            steps.put(name, record);
            planned.put(name, step);
        }
        for (AttemptRecord attempt : storedAttempts) {
            attempts.computeIfAbsent(attempt.step(), s -> new ArrayList<>()).add(attempt);
        }
        attempts.values().forEach(list -> list.sort((a, b) -> Integer.compare(a.number(), b.number())));
    }

    WorkflowPlan.PlannedStep planned(String job) {
        return planned.get(job);
    }

    /** The value a step published as {@code name}, from the run's history: the latest, if any. */
    Optional<String> output(String step, String name) {
        if (outputs == null) {
            outputs = new LinkedHashMap<>();
            for (RunEvent event : store.events(run.id())) {
                if (event.kind().equals(RunEvent.OUTPUT) && event.step().isPresent()) {
                    int eq = event.detail().indexOf('=');
                    outputs.put(event.step().get() + "." + event.detail().substring(0, eq),
                            event.detail().substring(eq + 1));
                }
            }
        }
        // Outputs recorded in this pass (not stored yet) come after the stored ones.
        for (RunEvent event : events) {
            if (event.kind().equals(RunEvent.OUTPUT) && event.step().filter(step::equals).isPresent()
                    && event.detail().startsWith(name + "=")) {
                outputs.put(step + "." + name, event.detail().substring(name.length() + 1));
            }
        }
        return Optional.ofNullable(outputs.get(step + "." + name));
    }

    /** The workflow's step of that name. */
    StepDefinition step(String name) {
        return workflow.step(name).orElseThrow(() -> new IllegalArgumentException("no step " + name));
    }

    /** The step's latest attempt. */
    Optional<AttemptRecord> current(String job) {
        List<AttemptRecord> list = attempts.getOrDefault(job, List.of());
        return list.isEmpty() ? Optional.empty() : Optional.of(list.get(list.size() - 1));
    }

    /** The step's attempts, oldest first. */
    List<AttemptRecord> attempts(String job) {
        return List.copyOf(attempts.getOrDefault(job, List.of()));
    }

    /** The step's attempts before its latest, oldest first. */
    List<AttemptRecord> earlier(String job) {
        List<AttemptRecord> list = attempts.getOrDefault(job, List.of());
        return list.isEmpty() ? List.of() : list.subList(0, list.size() - 1);
    }

    Map<String, RunScheduler.JobStanding> standings() {
        Map<String, RunScheduler.JobStanding> standings = new LinkedHashMap<>();
        steps.forEach((name, step) -> standings.put(name, new RunScheduler.JobStanding(step.state(),
                step.nextAttemptAt())));
        return standings;
    }

    /** The step moved to {@code state}; attempts and evictions as they are. */
    StepRecord setStep(StepRecord step, StepState state, Optional<Instant> nextAttemptAt, String reason) {
        return saveStep(step.moved(state, nextAttemptAt, reason, now));
    }

    StepRecord saveStep(StepRecord step) {
        steps.put(step.name(), step);
        changedSteps.put(step.name(), step);
        return step;
    }

    void updateAttempt(AttemptRecord attempt) {
        List<AttemptRecord> list = attempts.get(attempt.step());
        list.set(list.size() - 1, attempt);
        changedAttempts.put(attempt.step(), attempt);
    }

    /** A new attempt and its step, already stored together ({@link RunStore#startAttempt}). */
    void recorded(StepRecord step, AttemptRecord attempt) {
        steps.put(step.name(), step);
        changedSteps.remove(step.name()); // stored already; an earlier change of this look must not overwrite it
        attempts.computeIfAbsent(step.name(), s -> new ArrayList<>()).add(attempt);
        notifier.stepChanged(step);
    }

    /** An event of the job {@code job}, or of the run when it is null. */
    void event(String job, String kind, String detail) {
        events.add(job == null ? RunEvent.ofRun(run.id(), now, kind, detail)
                : RunEvent.ofStep(run.id(), job, now, kind, detail));
    }

    /** Writes what this look changed: attempts, then steps, then the events that tell of them. */
    void flush() {
        changedAttempts.values().forEach(store::updateAttempt);
        if (!changedSteps.isEmpty()) {
            store.saveSteps(List.copyOf(changedSteps.values()));
        }
        if (!events.isEmpty()) {
            store.append(List.copyOf(events));
        }
        changedSteps.values().forEach(notifier::stepChanged);
        changedAttempts.clear();
        changedSteps.clear();
        events.clear();
    }
}
