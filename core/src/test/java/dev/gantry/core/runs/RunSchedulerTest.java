package dev.gantry.core.runs;

import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.RunState;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowDefinition;
import static dev.gantry.core.runs.WorkflowDefinitionTest.JOB;
import static dev.gantry.core.runs.WorkflowDefinitionTest.step;
import static dev.gantry.core.runs.WorkflowDefinitionTest.workflow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunSchedulerTest {
    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");

    private final Map<String, RunScheduler.JobStanding> standings = new HashMap<>();

    private RunScheduler.Decision decide(WorkflowDefinition workflow) {
        return RunScheduler.decide(workflow, standings, NOW);
    }

    private void set(StepState state, String... jobs) {
        for (String job : jobs) {
            standings.put(job, RunScheduler.JobStanding.of(state));
        }
    }

    private static List<String> submitted(RunScheduler.Decision decision) {
        return decision.submit().stream().map(StepInstance::name).toList();
    }

    private static StepDefinition withPolicy(StepDefinition step, FailurePolicy policy) {
        return new StepDefinition(step.name(), step.workload(), step.dependsOn(), step.retries(), policy,
                step.timeout(), step.instances());
    }

    private static StepDefinition matrix(String name, String... values) {
        List<StepInstance> instances = java.util.Arrays.stream(values)
                .map(v -> new StepInstance(name + "-" + v, Map.of("V", v), JOB)).toList();
        return new StepDefinition(name, JOB, List.of(), RetryPolicy.NONE, FailurePolicy.STOP, Optional.empty(),
                instances);
    }

    @Test
    void aChainRunsOneStepAfterAnotherAndSucceedsWhenAllDo() {
        WorkflowDefinition flow = workflow(step("b", "a"), step("a"));
        assertEquals(List.of("a"), submitted(decide(flow)));
        set(StepState.RUNNING, "a");
        assertEquals(List.of(), submitted(decide(flow)));
        set(StepState.SUCCEEDED, "a");
        assertEquals(List.of("b"), submitted(decide(flow)));
        assertEquals(Optional.empty(), decide(flow).outcome());
        set(StepState.SUCCEEDED, "b");
        assertEquals(Optional.of(RunState.SUCCEEDED), decide(flow).outcome());
    }

    @Test
    void parallelismBoundsTheActiveJobs() {
        WorkflowDefinition flow = new WorkflowDefinition("flow", Map.of(), List.of(step("a"), step("b"), step("c")), 2);
        assertEquals(List.of("a", "b"), submitted(decide(flow)));
        set(StepState.RUNNING, "a");
        assertEquals(List.of("b"), submitted(decide(flow)));
        set(StepState.SUCCEEDED, "a");
        set(StepState.SUBMITTED, "b");
        assertEquals(List.of("c"), submitted(decide(flow)));
    }

    @Test
    void aDependentOfAMatrixWaitsForEveryCombination() {
        WorkflowDefinition flow = workflow(matrix("train", "1", "2"), step("serve", "train"));
        assertEquals(List.of("train-1", "train-2"), submitted(decide(flow)));
        set(StepState.SUCCEEDED, "train-1");
        set(StepState.RUNNING, "train-2");
        assertEquals(List.of(), submitted(decide(flow)));
        set(StepState.SUCCEEDED, "train-2");
        assertEquals(List.of("serve"), submitted(decide(flow)));
    }

    @Test
    void stopCancelsWhatRunsAndSkipsTheRest() {
        WorkflowDefinition flow = workflow(step("a"), step("b"), step("c", "a"), step("d"));
        set(StepState.FAILED, "a");
        set(StepState.RUNNING, "b");
        RunScheduler.Decision decision = decide(flow);
        assertEquals(List.of(), submitted(decision));
        assertEquals(Map.of("b", "the workflow stopped: step a failed"), decision.cancel());
        assertEquals(Map.of("c", "the workflow stopped: step a failed", "d", "the workflow stopped: step a failed"),
                decision.skip());
        set(StepState.CANCELLED, "b");
        set(StepState.SKIPPED, "c", "d");
        assertEquals(Optional.of(RunState.FAILED), decide(flow).outcome());
    }

    @Test
    void continueSkipsOnlyWhatDependsOnTheFailureDownTheWholeChain() {
        WorkflowDefinition flow = workflow(withPolicy(step("a"), FailurePolicy.CONTINUE), step("b", "a"),
                step("c", "b"), step("d"));
        set(StepState.FAILED, "a");
        RunScheduler.Decision decision = decide(flow);
        assertEquals(List.of("d"), submitted(decision));
        assertEquals(Map.of("b", "step a did not succeed", "c", "step b did not succeed"), decision.skip());
        assertEquals(Map.of(), decision.cancel());
        set(StepState.SKIPPED, "b", "c");
        set(StepState.SUCCEEDED, "d");
        assertEquals(Optional.of(RunState.FAILED), decide(flow).outcome(), "a failure fails the run at its end");
    }

    @Test
    void cleanupRunsOnceTheStoppedWorkIsGone() {
        WorkflowDefinition flow = workflow(withPolicy(step("train"), FailurePolicy.cleanup("release")),
                step("eval"), step("release"));
        assertEquals(List.of("train", "eval"), submitted(decide(flow)), "a cleanup step does not run by itself");
        set(StepState.FAILED, "train");
        set(StepState.RUNNING, "eval");
        RunScheduler.Decision stopping = decide(flow);
        assertEquals(Map.of("eval", "the workflow stopped: step train failed"), stopping.cancel());
        assertEquals(List.of(), submitted(stopping));
        set(StepState.CANCELLED, "eval");
        assertEquals(List.of("release"), submitted(decide(flow)));
        set(StepState.SUCCEEDED, "release");
        assertEquals(Optional.of(RunState.FAILED), decide(flow).outcome());
    }

    @Test
    void aCleanupStepNoFailureCallsForIsSkippedAtTheEnd() {
        WorkflowDefinition flow = workflow(withPolicy(step("train"), FailurePolicy.cleanup("release")),
                step("release"));
        set(StepState.RUNNING, "train");
        assertEquals(Map.of(), decide(flow).skip());
        set(StepState.SUCCEEDED, "train");
        RunScheduler.Decision decision = decide(flow);
        assertEquals(Map.of("release", "no step failed into this cleanup step"), decision.skip());
        assertEquals(Optional.of(RunState.SUCCEEDED), decision.outcome());
    }

    @Test
    void aRetryWaitsUntilItsTime() {
        WorkflowDefinition flow = workflow(step("a"));
        standings.put("a", new RunScheduler.JobStanding(StepState.RETRY_WAIT, Optional.of(NOW.plusSeconds(30))));
        assertEquals(List.of(), submitted(decide(flow)));
        assertEquals(List.of("a"), submitted(RunScheduler.decide(flow, standings, NOW.plus(Duration.ofSeconds(30)))));
    }
}
