package dev.gantry.core.runs;

import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.WorkflowDefinition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Workload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

public class WorkflowDefinitionTest {
    static final Workload JOB = Workload.builder("job").phase(Phase.INFERENCE).model(ModelClass.SMALL)
            .command(List.of("true")).build();

    public static StepDefinition step(String name, String... dependsOn) {
        return StepDefinition.of(name, JOB, List.of(dependsOn));
    }

    static WorkflowDefinition workflow(StepDefinition... steps) {
        return new WorkflowDefinition("flow", Map.of(), List.of(steps), 0);
    }

    static List<String> names(List<StepDefinition> steps) {
        return steps.stream().map(StepDefinition::name).toList();
    }

    @Test
    void topologicalOrderPutsDependenciesFirstAndKeepsWrittenOrderOnTies() {
        WorkflowDefinition w = workflow(step("report", "train"), step("train", "prep"), step("prep"),
                step("lint"), step("serve", "train", "lint"));

        assertEquals(List.of("prep", "train", "report", "lint", "serve"), names(w.topologicalOrder()));
    }

    @Test
    void dependentsAreTheDirectOnesInWrittenOrder() {
        WorkflowDefinition w = workflow(step("prep"), step("train", "prep"), step("eval", "train"),
                step("report", "prep"));

        assertEquals(List.of("train", "report"), names(w.dependentsOf("prep")));
        assertEquals(List.of(), names(w.dependentsOf("eval")));
    }

    @Test
    void aCycleIsRejectedWithItsPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> workflow(step("a", "b"), step("b", "c"), step("c", "a"), step("d")));

        assertEquals("dependency cycle: a -> b -> c -> a", e.getMessage());
    }

    @Test
    void findCycleFindsSelfLoopsAndIgnoresUnknownNames() {
        Map<String, List<String>> graph = new LinkedHashMap<>();
        graph.put("a", List.of("x"));
        graph.put("b", List.of("b"));

        assertEquals(Optional.of(List.of("b", "b")), WorkflowDefinition.findCycle(graph));
        assertEquals(Optional.empty(), WorkflowDefinition.findCycle(Map.of("a", List.of("x"), "b", List.of("a"))));
    }

    @Test
    void findCycleReportsOnlyTheLoopNotThePathLeadingToIt() {
        Map<String, List<String>> graph = new LinkedHashMap<>();
        graph.put("start", List.of("a"));
        graph.put("a", List.of("b"));
        graph.put("b", List.of("a"));

        assertEquals(Optional.of(List.of("a", "b", "a")), WorkflowDefinition.findCycle(graph));
    }

    @Test
    void duplicateUnknownAndCleanupNamesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> workflow(step("a"), step("a")));
        assertThrows(IllegalArgumentException.class, () -> workflow(step("a", "nope")));
        StepDefinition withCleanup = new StepDefinition("a", JOB, List.of(), RetryPolicy.NONE,
                FailurePolicy.cleanup("gone"), Optional.empty(), List.of(new StepInstance("a", Map.of(), JOB)));
        assertThrows(IllegalArgumentException.class, () -> workflow(withCleanup));
        assertThrows(IllegalArgumentException.class, () -> new WorkflowDefinition("f", Map.of(), List.of(), 0));
        assertThrows(IllegalArgumentException.class, () -> new WorkflowDefinition("f", Map.of(),
                List.of(step("a")), -1));
    }

    @Test
    void retryBackoffDoublesPerAttempt() {
        RetryPolicy retries = new RetryPolicy(3, Duration.ofSeconds(30));

        assertEquals(Duration.ofSeconds(30), retries.delayBefore(1));
        assertEquals(Duration.ofSeconds(60), retries.delayBefore(2));
        assertEquals(Duration.ofSeconds(120), retries.delayBefore(3));
        assertThrows(IllegalArgumentException.class, () -> retries.delayBefore(4));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(-1, Duration.ZERO));
        assertEquals(new RetryPolicy(0, Duration.ofSeconds(30)), RetryPolicy.NONE);
    }

    @Test
    void failurePoliciesReadAsWritten() {
        assertEquals("stop", FailurePolicy.STOP.toString());
        assertEquals("continue", FailurePolicy.CONTINUE.toString());
        assertEquals("cleanup:teardown", FailurePolicy.cleanup("teardown").toString());
        assertThrows(IllegalArgumentException.class,
                () -> new FailurePolicy(FailurePolicy.Action.STOP, Optional.of("x")));
    }
}
