package dev.gantry.backend.batch.fake.autoscale;

import static dev.gantry.backend.batch.fake.autoscale.FormulaEvaluatorTest.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.backend.batch.internal.render.AutoscaleFormula;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The formula Gantry gives its pools ({@link AutoscaleFormula}) is inside the interpreted subset and sets the targets
 * the issue asks for: what waits and runs (a multi-node task's nodes), Spot's preempted nodes added, capped, and zero
 * once nothing waits or runs; whether the window holds enough samples or only the last one is trusted.
 */
class GantryFormulaTest {
    private static final Duration FAKE_PERIOD = Duration.ofMillis(100);

    @Test
    void aWaitingTaskBringsANodeAndNothingPendingTakesThePoolToZero() {
        FormulaEvaluator formula = FormulaEvaluator.parse(AutoscaleFormula.render(false, 1, 4));
        assertEquals(1, formula.evaluate(last(1, 0, 0), NOW).targetDedicated());
        assertEquals(0, formula.evaluate(last(1, 0, 0), NOW).targetLowPriority());
        assertEquals("taskcompletion", formula.evaluate(last(1, 0, 0), NOW).nodeDeallocationOption());
        assertEquals(3, formula.evaluate(last(2, 1, 0), NOW).targetDedicated(), "waiting and running");
        assertEquals(4, formula.evaluate(last(9, 0, 0), NOW).targetDedicated(), "capped at maxNodesPerPool");
        assertEquals(0, formula.evaluate(last(0, 0, 0), NOW).targetDedicated());
    }

    @Test
    void spotTargetsLowPriorityNodesCountingPreemptedOnesAndEveryNodeOfARunningMultiNodeTask() {
        FormulaEvaluator formula = FormulaEvaluator.parse(AutoscaleFormula.render(true, 2, 8));
        // A waiting two-node task counts its instances in $ActiveTasks already (Batch's docs).
        Evaluation waiting = formula.evaluate(last(2, 0, 1), NOW);
        assertEquals(0, waiting.targetDedicated());
        assertEquals(3, waiting.targetLowPriority(), "2 instances waiting + 1 preempted node");
        assertEquals(4, formula.evaluate(last(0, 2, 0), NOW).targetLowPriority(), "two running two-node tasks");
        assertEquals(0, formula.evaluate(last(0, 0, 3), NOW).targetLowPriority(), "preempted nodes alone hold none");
    }

    @Test
    void aFullWindowAveragesWhatWaitedWhileAShortOneTrustsTheLastSample() {
        FormulaEvaluator formula = FormulaEvaluator.parse(AutoscaleFormula.render(false, 1, 10));
        // Batch's 30-second samples over the whole five minutes: the average of the window holds 6 nodes even when
        // the last sample has 2 waiting.
        Samples.Builder full = Samples.builder();
        for (int i = 10; i >= 1; i--) {
            Instant at = NOW.minus(Samples.BATCH_PERIOD.multipliedBy(i));
            full.sample("$ActiveTasks", at, i <= 5 ? 2 : 12).sample("$RunningTasks", at, 0)
                    .sample("$PendingTasks", at, i <= 5 ? 2 : 12).sample("$PreemptedNodeCount", at, 0);
        }
        full.sample("$ActiveTasks", NOW, 2).sample("$RunningTasks", NOW, 0).sample("$PendingTasks", NOW, 2);
        assertEquals(6, formula.evaluate(full.build(), NOW).targetDedicated());
        assertEquals(2, formula.evaluate(last(2, 0, 0), NOW).targetDedicated(), "one sample: the last one");
    }

    /** One sample of each metric, as the fake has right after a pool is made, taken at its short period. */
    private static Samples last(int active, int running, int preempted) {
        return Samples.builder().period(FAKE_PERIOD).sample("$ActiveTasks", NOW, active)
                .sample("$RunningTasks", NOW, running).sample("$PendingTasks", NOW, active + running)
                .sample("$PreemptedNodeCount", NOW, preempted).build();
    }
}
