package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Which jobs {@code gantry retry} runs again. */
final class RetrySelection {
    private RetrySelection() {
    }

    /**
     * The jobs named (a step's, or one matrix instance) and every job skipped downstream of them; or, with no name,
     * every job that failed, was cancelled or was skipped.
     */
    static List<StepRecord> steps(WorkflowDefinition workflow, List<StepRecord> stored, Optional<String> named,
            String runId) {
        Map<String, StepRecord> byName = new LinkedHashMap<>();
        stored.forEach(step -> byName.put(step.name(), step));
        Set<String> chosen = new LinkedHashSet<>();
        if (named.isEmpty()) {
            stored.stream().filter(s -> s.state().finished() && s.state() != StepState.SUCCEEDED)
                    .forEach(s -> chosen.add(s.name()));
        } else {
            List<String> jobs = jobsOf(workflow, named.get(), byName, runId);
            for (String job : jobs) {
                StepRecord step = byName.get(job);
                if (step.state() == StepState.SUCCEEDED) {
                    throw new GantryException(ErrorCode.USAGE, "step " + job + " of run " + runId + " succeeded; "
                            + "there is nothing to retry (a new run of the spec runs everything again)");
                }
                if (!step.state().finished()) {
                    throw new GantryException(ErrorCode.USAGE, "step " + job + " of run " + runId + " has not ended ("
                            + step.state() + "); 'gantry attach " + runId + "' follows it");
                }
                chosen.add(job);
            }
            chosen.addAll(skippedDownstream(workflow, jobs, byName));
        }
        if (chosen.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "run " + runId + " has no failed, cancelled or skipped step to "
                    + "retry");
        }
        List<StepRecord> result = new ArrayList<>();
        chosen.forEach(name -> result.add(byName.get(name)));
        return result;
    }

    private static List<String> jobsOf(WorkflowDefinition workflow, String name, Map<String, StepRecord> byName,
            String runId) {
        Optional<StepDefinition> step = workflow.step(name);
        if (step.isPresent()) {
            return step.get().instances().stream().map(StepInstance::name).toList();
        }
        if (byName.containsKey(name)) {
            return List.of(name);
        }
        throw new GantryException(ErrorCode.USAGE, "run " + runId + " has no step '" + name + "'; its steps are "
                + String.join(", ", byName.keySet()));
    }

    /** The jobs SKIPPED because a step of {@code jobs} did not succeed, down the whole chain. */
    private static Set<String> skippedDownstream(WorkflowDefinition workflow, List<String> jobs,
            Map<String, StepRecord> byName) {
        Set<String> found = new LinkedHashSet<>();
        Deque<String> steps = new ArrayDeque<>();
        for (StepDefinition step : workflow.steps()) {
            if (step.instances().stream().anyMatch(i -> jobs.contains(i.name()))) {
                steps.add(step.name());
            }
        }
        while (!steps.isEmpty()) {
            for (StepDefinition dependent : workflow.dependentsOf(steps.pop())) {
                for (StepInstance instance : dependent.instances()) {
                    if (byName.get(instance.name()).state() == StepState.SKIPPED && found.add(instance.name())) {
                        steps.add(dependent.name());
                    }
                }
            }
        }
        return found;
    }
}
