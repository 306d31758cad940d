package dev.gantry.runs.engine;

import dev.gantry.core.runs.RunBudget;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunStatus;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.runs.jobs.JobService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Holds a run to its {@code budget.maxTotal} ceilings at each poll, as {@link RunBudget} judges them from the run's
 * cost table: writes the 80% warning into the pass once per ceiling, and says what the engine must stop. A stop is
 * written into the run's history ({@code budget-reached}) before the engine cancels anything, so a process that dies
 * while stopping leaves a successor that goes on stopping (from {@link #stoppedBefore}), even though the cancelled
 * jobs no longer add to the spend.
 */
final class BudgetGuard {
    private final JobService jobs;
    private final RunNotifier notifier;
    private final Duration untilNextPoll;

    /**
     * What the ceilings call for at this poll.
     *
     * @param run the run's end message when the run's own ceiling is reached
     * @param jobs each job whose own ceiling is reached, with its end message
     */
    record Stops(Optional<String> run, Map<String, String> jobs) {
        static final Stops NONE = new Stops(Optional.empty(), Map.of());
    }

    BudgetGuard(JobService jobs, RunNotifier notifier, Duration untilNextPoll) {
        this.jobs = jobs;
        this.notifier = notifier;
        this.untilNextPoll = untilNextPoll;
    }

    /** The stops the run's history already holds (an earlier driver's), for steps or the run not ended yet. */
    Stops stoppedBefore(RunPass pass) {
        String runId = pass.run.id();
        Optional<String> run = notifier.budgetReached(runId, Optional.empty()).map(RunBudget::messageOf);
        Map<String, String> steps = new LinkedHashMap<>();
        pass.steps.forEach((name, step) -> {
            if (!step.state().finished()) {
                notifier.budgetReached(runId, Optional.of(name))
                        .ifPresent(detail -> steps.put(name, RunBudget.messageOf(detail)));
            }
        });
        return new Stops(run, steps);
    }

    /**
     * Judges every ceiling of the run against its cost table as stored after this poll's refresh; warnings and
     * stops are added to the pass's events.
     */
    Stops check(RunPass pass, WorkflowPlan plan) {
        List<RunBudget.Scope> scopes = RunBudget.scopes(plan);
        // A run whose every step has ended is over, whatever it cost: its work is not undone by failing it.
        if (scopes.isEmpty() || pass.steps.values().stream().allMatch(step -> step.state().finished())) {
            return Stops.NONE;
        }
        RunStatus status = status(pass);
        Map<String, String> stopped = new LinkedHashMap<>();
        for (RunBudget.Scope scope : scopes) {
            if (scope.job().isPresent() && !open(pass.steps.get(scope.job().get()))) {
                continue;
            }
            RunBudget.Verdict verdict = RunBudget.judge(scope, RunBudget.spend(status, scope, untilNextPoll),
                    notifier.budgetWarned(pass.run.id(), scope.job()), status);
            String job = scope.job().orElse(null);
            if (verdict instanceof RunBudget.Warning warning) {
                pass.event(job, RunEvent.BUDGET_WARNING, warning.detail());
            } else if (verdict instanceof RunBudget.Reached reached) {
                pass.event(job, RunEvent.BUDGET_REACHED, reached.detail());
                if (job == null) {
                    return new Stops(Optional.of(reached.message()), Map.of());
                }
                stopped.put(job, reached.message());
            }
        }
        return new Stops(Optional.empty(), stopped);
    }

    /** A step that has started and not ended: the only kind a step's own ceiling can stop. */
    private static boolean open(StepRecord step) {
        return !step.state().finished() && step.state() != StepState.WAITING;
    }

    /** The run's cost table: its steps and attempts as this pass holds them, their jobs as stored. */
    private RunStatus status(RunPass pass) {
        List<AttemptRecord> attempts = new ArrayList<>();
        pass.steps.keySet().forEach(name -> attempts.addAll(pass.attempts(name)));
        Map<String, JobRecord> byId = new LinkedHashMap<>();
        jobs.stored(attempts.stream().map(AttemptRecord::jobId).toList()).forEach(job -> byId.put(job.id(), job));
        return new RunStatus(pass.run, List.copyOf(pass.steps.values()), attempts, byId, pass.now);
    }
}
