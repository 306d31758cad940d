package dev.gantry.core.runs;

import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RunState;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides, from where every job of a run stands, what the run does next: which jobs to submit, which never to run,
 * which to cancel, and whether the run is over. A pure function of the definition, the states and the time, so the
 * driver that acts on it can be killed at any point and decide again from the stored states alone.
 *
 * <p>The rules: a job starts once every job of the steps it depends on has succeeded, after its retry wait, and
 * while fewer than {@code parallelism} jobs are active. A step fails when one of its jobs ends FAILED or CANCELLED
 * (retries are the driver's, before it records FAILED). Then its {@code onFailure} applies: {@code stop} cancels the
 * active jobs and runs nothing more; {@code continue} skips only what depends on the step; {@code cleanup:STEP}
 * stops as {@code stop} does, then runs STEP once nothing else is active. A cleanup step runs only so: when no step
 * fails into it, it is skipped.
 */
public final class RunScheduler {

    /** What to do now. {@code skip} and {@code cancel} map job names to the reason recorded with them. */
    public record Decision(List<StepInstance> submit, Map<String, String> skip, Map<String, String> cancel,
            Optional<RunState> outcome) {
        public Decision {
            submit = List.copyOf(submit);
            skip = Map.copyOf(skip);
            cancel = Map.copyOf(cancel);
        }
    }

    /** Where one job stands, as recorded: its state and, while it waits to be retried, until when. */
    public record JobStanding(StepState state, Optional<Instant> nextAttemptAt) {
        public static JobStanding of(StepState state) {
            return new JobStanding(state, Optional.empty());
        }
    }

    private RunScheduler() {
    }

    /**
     * @param standings every job's standing by job name (a step's name, or a matrix instance's); a job with no
     *     entry has not been looked at yet and counts as {@link StepState#WAITING}
     */
    public static Decision decide(WorkflowDefinition workflow, Map<String, JobStanding> standings, Instant now) {
        return decide(workflow, standings, now, step -> false);
    }

    /**
     * The same, for a backend that orders jobs itself ({@code Capabilities.nativeDependencies()}): a job may also be
     * submitted while a step it depends on is still active, when {@code passDown} says that step's jobs are the ones
     * that will finish it (no retry or recovery will replace them), so the orchestrator starts it as soon as they
     * succeed, without waiting for a poll. Cleanup steps always wait for what they clean up.
     */
    public static Decision decide(WorkflowDefinition workflow, Map<String, JobStanding> standings, Instant now,
            Predicate<StepDefinition> passDown) {
        Map<String, StepState> states = new HashMap<>();
        for (StepDefinition step : workflow.steps()) {
            for (StepInstance job : step.instances()) {
                states.put(job.name(), Optional.ofNullable(standings.get(job.name())).map(JobStanding::state)
                        .orElse(StepState.WAITING));
            }
        }
        Set<String> cleanupSteps = new LinkedHashSet<>();
        workflow.steps().forEach(step -> step.onFailure().cleanupStep().ifPresent(cleanupSteps::add));

        // Which failure, if any, stops the run, and which cleanup steps the failures call for.
        Optional<String> stoppedBy = Optional.empty();
        Set<String> cleanupsCalled = new LinkedHashSet<>();
        for (StepDefinition step : workflow.topologicalOrder()) {
            if (outcome(step, states) == Outcome.FAILED && step.onFailure().action() != FailurePolicy.Action.CONTINUE
                    && !cleanupSteps.contains(step.name())) {
                stoppedBy = stoppedBy.or(() -> Optional.of(step.name()));
                step.onFailure().cleanupStep().ifPresent(cleanupsCalled::add);
            }
        }

        Map<String, String> cancel = new LinkedHashMap<>();
        Map<String, String> skip = new LinkedHashMap<>();
        List<StepInstance> submit = new ArrayList<>();
        int active = (int) states.values().stream().filter(RunScheduler::active).count();
        int limit = workflow.parallelism() == 0 ? Integer.MAX_VALUE : workflow.parallelism();

        for (StepDefinition step : workflow.topologicalOrder()) {
            boolean cleanup = cleanupSteps.contains(step.name());
            for (StepInstance job : step.instances()) {
                StepState state = states.get(job.name());
                if (stoppedBy.isPresent() && active(state) && !cleanup) {
                    cancel.put(job.name(), "the workflow stopped: step " + stoppedBy.get() + " failed");
                    continue;
                }
                if (state.finished() || active(state)) {
                    continue;
                }
                Optional<String> blocked = cleanup ? Optional.empty() : blockedBy(workflow, step, states);
                if (!cleanup && stoppedBy.isPresent()) {
                    skip(job, "the workflow stopped: step " + stoppedBy.get() + " failed", skip, states);
                } else if (blocked.isPresent()) {
                    skip(job, "step " + blocked.get() + " did not succeed", skip, states);
                } else if (cleanup && !cleanupsCalled.contains(step.name())) {
                    if (!othersPending(workflow, cleanupSteps, states)) {
                        skip(job, "no step failed into this cleanup step", skip, states);
                    }
                } else if (cleanup && (othersActive(workflow, cleanupSteps, states, cancel)
                        || !dependenciesSucceeded(workflow, step, states))) {
                    // Cleanup runs once the stopped work is gone, so it does not race what it cleans up.
                    continue;
                } else if ((dependenciesSucceeded(workflow, step, states)
                        || (!cleanup && dependenciesUnderway(workflow, step, states, passDown)))
                        && due(standings.get(job.name()), now) && active + submit.size() < limit) {
                    submit.add(job);
                }
            }
        }

        boolean over = submit.isEmpty() && cancel.isEmpty()
                && states.values().stream().allMatch(StepState::finished);
        Optional<RunState> outcome = Optional.empty();
        if (over) {
            boolean allSucceeded = workflow.steps().stream().filter(step -> !cleanupSteps.contains(step.name()))
                    .allMatch(step -> outcome(step, states) == Outcome.SUCCEEDED);
            outcome = Optional.of(allSucceeded ? RunState.SUCCEEDED : RunState.FAILED);
        }
        return new Decision(submit, skip, cancel, outcome);
    }

    private enum Outcome { PENDING, SUCCEEDED, FAILED, SKIPPED }

    /** A step succeeds when all its jobs do; it fails as soon as one of them fails or is cancelled. */
    private static Outcome outcome(StepDefinition step, Map<String, StepState> states) {
        boolean allSucceeded = true;
        boolean skipped = false;
        for (StepInstance job : step.instances()) {
            StepState state = states.get(job.name());
            if (state == StepState.FAILED || state == StepState.CANCELLED) {
                return Outcome.FAILED;
            }
            skipped |= state == StepState.SKIPPED;
            allSucceeded &= state == StepState.SUCCEEDED;
        }
        return allSucceeded ? Outcome.SUCCEEDED : skipped ? Outcome.SKIPPED : Outcome.PENDING;
    }

    private static Optional<String> blockedBy(WorkflowDefinition workflow, StepDefinition step,
            Map<String, StepState> states) {
        for (String dependency : step.dependsOn()) {
            Outcome outcome = outcome(workflow.step(dependency).orElseThrow(), states);
            if (outcome == Outcome.FAILED || outcome == Outcome.SKIPPED) {
                return Optional.of(dependency);
            }
        }
        return Optional.empty();
    }

    private static boolean dependenciesSucceeded(WorkflowDefinition workflow, StepDefinition step,
            Map<String, StepState> states) {
        return step.dependsOn().stream()
                .allMatch(name -> outcome(workflow.step(name).orElseThrow(), states) == Outcome.SUCCEEDED);
    }

    /** Every dependency succeeded, or is active with jobs the orchestrator can wait for itself. */
    private static boolean dependenciesUnderway(WorkflowDefinition workflow, StepDefinition step,
            Map<String, StepState> states, Predicate<StepDefinition> passDown) {
        for (String name : step.dependsOn()) {
            StepDefinition dependency = workflow.step(name).orElseThrow();
            Outcome outcome = outcome(dependency, states);
            if (outcome == Outcome.SUCCEEDED) {
                continue;
            }
            boolean allUnderway = dependency.instances().stream().map(job -> states.get(job.name()))
                    .allMatch(state -> active(state) || state == StepState.SUCCEEDED);
            if (outcome != Outcome.PENDING || !allUnderway || !passDown.test(dependency)) {
                return false;
            }
        }
        return true;
    }

    private static boolean othersPending(WorkflowDefinition workflow, Set<String> cleanupSteps,
            Map<String, StepState> states) {
        return workflow.steps().stream().filter(step -> !cleanupSteps.contains(step.name()))
                .flatMap(step -> step.instances().stream()).anyMatch(job -> !states.get(job.name()).finished());
    }

    private static boolean othersActive(WorkflowDefinition workflow, Set<String> cleanupSteps,
            Map<String, StepState> states, Map<String, String> cancelling) {
        return workflow.steps().stream().filter(step -> !cleanupSteps.contains(step.name()))
                .flatMap(step -> step.instances().stream())
                .anyMatch(job -> active(states.get(job.name())) || cancelling.containsKey(job.name()));
    }

    private static void skip(StepInstance job, String reason, Map<String, String> skip, Map<String, StepState> states) {
        skip.put(job.name(), reason);
        // Later steps in this same decision see it skipped, so a skip runs down a chain at once.
        states.put(job.name(), StepState.SKIPPED);
    }

    private static boolean active(StepState state) {
        return state == StepState.SUBMITTED || state == StepState.RUNNING;
    }

    private static boolean due(JobStanding standing, Instant now) {
        return standing == null || standing.state() != StepState.RETRY_WAIT
                || standing.nextAttemptAt().map(at -> !at.isAfter(now)).orElse(true);
    }
}
