package dev.gantry.backend.batch.fake.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example formulas of Batch's docs ("Create a formula to automatically scale compute nodes in a Batch pool",
 * MicrosoftDocs/azure-docs articles/batch/batch-automatic-scaling.md), evaluated against sample histories, with the
 * {@code results} text in Batch's shape.
 */
class FormulaEvaluatorTest {
    static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    /** The docs' "Pending tasks" sample formula: a sample-percentage guard, then the average, capped at 25. */
    static final String PENDING_TASKS = """
            startingNumberOfVMs = 1;
            maxNumberofVMs = 25;
            pendingTaskSamplePercent = $PendingTasks.GetSamplePercent(180 * TimeInterval_Second);
            pendingTaskSamples = pendingTaskSamplePercent < 70 ? startingNumberOfVMs : avg($PendingTasks.GetSample(180 * TimeInterval_Second));
            $TargetDedicatedNodes=min(maxNumberofVMs, pendingTaskSamples);
            $NodeDeallocationOption = taskcompletion;
            """;

    /** The docs' "Example 2: Task-based adjustment", comments and line breaks included. */
    static final String TASK_BASED = """
            // Get pending tasks for the past 15 minutes.
            $samples = $PendingTasks.GetSamplePercent(TimeInterval_Minute * 15);
            // If we have fewer than 70 percent data points, we use the last sample point,
            // otherwise we use the maximum of last sample point and the history average.
            $tasks = $samples < 70 ? max(0,$PendingTasks.GetSample(1)) : max( $PendingTasks.GetSample(1), avg($PendingTasks.GetSample(TimeInterval_Minute * 15)));
            // If number of pending tasks is not 0, set targetVM to pending tasks, otherwise
            // half of current dedicated.
            $targetVMs = $tasks > 0? $tasks:max(0, $TargetDedicatedNodes/2);
            // The pool size is capped at 20, if target VM value is more than that, set it
            // to 20. This value should be adjusted according to your use case.
            $TargetDedicatedNodes = max(0, min($targetVMs, 20));
            // Set node deallocation mode - let running tasks finish before removing a node
            $NodeDeallocationOption = taskcompletion;
            """;

    @Test
    void pendingTasksWithAFullHistoryTargetsTheAverage() {
        Samples samples = Samples.builder().sample("$PendingTasks", NOW.minusSeconds(150), 4)
                .sample("$PendingTasks", NOW.minusSeconds(120), 4).sample("$PendingTasks", NOW.minusSeconds(90), 6)
                .sample("$PendingTasks", NOW.minusSeconds(60), 6).sample("$PendingTasks", NOW.minusSeconds(30), 8)
                .sample("$PendingTasks", NOW, 8)
                // Older than the 180 s window: not averaged.
                .sample("$PendingTasks", NOW.minusSeconds(180), 1000).build();
        assertEquals(new Evaluation(6, 0, "taskcompletion", "$TargetDedicatedNodes=6;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=taskcompletion;maxNumberofVMs=25;pendingTaskSamplePercent=100;"
                + "pendingTaskSamples=6;startingNumberOfVMs=1"), evaluate(PENDING_TASKS, samples));
    }

    @Test
    void pendingTasksOnANewPoolTakesTheGuardAndStartsOneNode() {
        assertEquals(new Evaluation(1, 0, "taskcompletion", "$TargetDedicatedNodes=1;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=taskcompletion;maxNumberofVMs=25;pendingTaskSamplePercent=0;"
                + "pendingTaskSamples=1;startingNumberOfVMs=1"), evaluate(PENDING_TASKS, Samples.none()));
    }

    @Test
    void pendingTasksIsCappedAtTwentyFive() {
        Samples busy = Samples.builder().steady("$PendingTasks", NOW.minusSeconds(150), NOW, 400).build();
        assertEquals(25, evaluate(PENDING_TASKS, busy).targetDedicated());
    }

    @Test
    void theGuardKeepsTooFewSamplesFromFailingTheEvaluation() {
        // Three of the six samples 180 s should hold: 50 %, under the guard's 70.
        Samples half = Samples.builder().steady("$PendingTasks", NOW.minusSeconds(60), NOW, 9).build();
        assertEquals("pendingTaskSamplePercent=50", evaluate(PENDING_TASKS, half).results().split(";")[4]);
        assertEquals(1, evaluate(PENDING_TASKS, half).targetDedicated());
        // Five of six: 83.3333 %, over it, so the average of the five is taken.
        Samples most = Samples.builder().steady("$PendingTasks", NOW.minusSeconds(120), NOW, 9).build();
        assertEquals("$TargetDedicatedNodes=9;$TargetLowPriorityNodes=0;$NodeDeallocationOption=taskcompletion;"
                + "maxNumberofVMs=25;pendingTaskSamplePercent=83.3333;pendingTaskSamples=9;startingNumberOfVMs=1",
                evaluate(PENDING_TASKS, most).results());
    }

    @Test
    void aRequiredSamplePercentageNotMetFailsAsBatchReportsIt() {
        Samples half = Samples.builder().steady("$PendingTasks", NOW.minusSeconds(60), NOW, 9)
                .targetDedicatedNodes(2).build();
        FormulaEvaluator formula = FormulaEvaluator.parse(
                "$TargetDedicatedNodes = avg($PendingTasks.GetSample(TimeInterval_Minute * 3, 70));");
        FormulaException e = assertThrows(FormulaException.class, () -> formula.evaluate(half, NOW));
        assertEquals("InsufficientSampleData", e.code());
        assertEquals("Autoscale evaluation failed due to insufficient sample data", e.getMessage());
        assertEquals(Map.of("Message", "Line 1, Col 43: Insufficient data from data set: $PendingTasks wanted 70%,"
                + " received 50%"), e.values());
        assertEquals("$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue",
                e.results());
        Samples enough = Samples.builder().steady("$PendingTasks", NOW.minusSeconds(120), NOW, 9).build();
        assertEquals(9, formula.evaluate(enough, NOW).targetDedicated());
    }

    @Test
    void preemptedNodesAreReplacedByDedicatedOnes() {
        String formula = """
                maxNumberofVMs = 25;
                $TargetDedicatedNodes = min(maxNumberofVMs, $PreemptedNodeCount.GetSample(180 * TimeInterval_Second));
                $TargetLowPriorityNodes = min(maxNumberofVMs , maxNumberofVMs - $TargetDedicatedNodes);
                $NodeDeallocationOption = taskcompletion;
                """;
        Samples threePreempted = Samples.builder().steady("$PreemptedNodeCount", NOW.minusSeconds(150), NOW, 3)
                .build();
        assertEquals(new Evaluation(3, 22, "taskcompletion", "$TargetDedicatedNodes=3;$TargetLowPriorityNodes=22;"
                + "$NodeDeallocationOption=taskcompletion;maxNumberofVMs=25"), evaluate(formula, threePreempted));
    }

    @Test
    void theCpuFormulaGrowsABusyPoolAndShrinksAnIdleOne() {
        String formula = """
                $totalDedicatedNodes =
                    (min($CPUPercent.GetSample(TimeInterval_Minute * 10)) > 0.7) ?
                    ($CurrentDedicatedNodes * 1.1) : $CurrentDedicatedNodes;
                $totalDedicatedNodes =
                    (avg($CPUPercent.GetSample(TimeInterval_Minute * 60)) < 0.2) ?
                    ($CurrentDedicatedNodes * 0.9) : $totalDedicatedNodes;
                $TargetDedicatedNodes = min(400, $totalDedicatedNodes)""";
        Samples busy = Samples.builder().steady("$CPUPercent", NOW.minus(Duration.ofMinutes(59)), NOW, 0.9)
                .currentDedicatedNodes(10).targetDedicatedNodes(10).build();
        assertEquals(new Evaluation(11, 0, "requeue", "$TargetDedicatedNodes=11;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=requeue;$totalDedicatedNodes=11"), evaluate(formula, busy));
        Samples idle = Samples.builder().steady("$CPUPercent", NOW.minus(Duration.ofMinutes(59)), NOW, 0.1)
                .currentDedicatedNodes(10).targetDedicatedNodes(10).build();
        assertEquals(9, evaluate(formula, idle).targetDedicated());
    }

    @Test
    void taskBasedAdjustmentHalvesTheTargetWhenNothingIsPending() {
        Samples quiet = Samples.builder().targetDedicatedNodes(4).currentDedicatedNodes(4).build();
        assertEquals(new Evaluation(2, 0, "taskcompletion", "$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=taskcompletion;$samples=0;$targetVMs=2;$tasks=0"),
                evaluate(TASK_BASED, quiet));
        Samples busy = Samples.builder().steady("$PendingTasks", NOW.minus(Duration.ofSeconds(870)), NOW, 7)
                .sample("$PendingTasks", NOW, 12).build();
        assertEquals("$TargetDedicatedNodes=12;$TargetLowPriorityNodes=0;$NodeDeallocationOption=taskcompletion;"
                + "$samples=100;$targetVMs=12;$tasks=12", evaluate(TASK_BASED, busy).results());
    }

    /**
     * The shape of a real pool's {@code autoScaleRun.results}, published with its formula (a variant of the docs'
     * example 2 on {@code $ActiveTasks}, with a floor of one node): 29 of the 30 samples of 15 minutes, none active,
     * a current target of 1.
     */
    @Test
    void aPublishedAutoScaleRunIsReproducedCharacterForCharacter() {
        String formula = """
                $samples = $ActiveTasks.GetSamplePercent(TimeInterval_Minute * 15);
                $tasks = $samples < 70 ? max(0, $ActiveTasks.GetSample(1)) :\s
                max( $ActiveTasks.GetSample(1), avg($ActiveTasks.GetSample(TimeInterval_Minute * 15)));
                $targetVMs = $tasks > 0 ? $tasks : max(0, $TargetDedicatedNodes / 2);
                cappedPoolSize = 3;
                $TargetDedicatedNodes = max(1, min($targetVMs, cappedPoolSize));
                $NodeDeallocationOption = taskcompletion;""";
        Samples.Builder history = Samples.builder().targetDedicatedNodes(1).currentDedicatedNodes(1);
        for (int i = 0; i < 30; i++) {
            if (i != 17) {
                history.sample("$ActiveTasks", NOW.minusSeconds(30L * i), 0);
            }
        }
        assertEquals(new Evaluation(1, 0, "taskcompletion", "$TargetDedicatedNodes=1;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=taskcompletion;$samples=96.6667;$targetVMs=0.5;$tasks=0;cappedPoolSize=3"),
                evaluate(formula, history.build()));
    }

    @Test
    void parallelTasksRoundUpToWholeNodesBecauseTargetsAreCutToWholeNodes() {
        String formula = """
                $samples = $ActiveTasks.GetSamplePercent(TimeInterval_Minute * 15);
                $tasks = $samples < 70 ? max(0,$ActiveTasks.GetSample(1)) : max( $ActiveTasks.GetSample(1),avg($ActiveTasks.GetSample(TimeInterval_Minute * 15)));
                $cores = $TargetDedicatedNodes * 4;
                $extraVMs = (($tasks - $cores) + 3) / 4;
                $targetVMs = ($TargetDedicatedNodes + $extraVMs);
                $TargetDedicatedNodes = max(0,min($targetVMs,3));
                $NodeDeallocationOption = taskcompletion;
                """;
        Samples sixActive = Samples.builder().steady("$ActiveTasks", NOW.minus(Duration.ofSeconds(870)), NOW, 6)
                .targetDedicatedNodes(1).build();
        assertEquals(new Evaluation(2, 0, "taskcompletion", "$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;"
                + "$NodeDeallocationOption=taskcompletion;$cores=4;$extraVMs=1.25;$samples=100;$targetVMs=2.25;"
                + "$tasks=6"), evaluate(formula, sixActive));
    }

    private static Evaluation evaluate(String formula, Samples samples) {
        return FormulaEvaluator.parse(formula).evaluate(samples, NOW);
    }
}
