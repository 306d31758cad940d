package dev.gantry.backend.batch.fake.autoscale;

import static dev.gantry.backend.batch.fake.autoscale.FormulaEvaluatorTest.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the subset computes beyond the docs' examples: each rule the evaluator applies, one case each. */
class FormulaSemanticsTest {
    @Test
    void resultsPrintVectorsIntervalsAndRoundedDoublesWithVariablesSortedByName() {
        Samples samples = Samples.builder().sample("$PendingTasks", NOW.minusSeconds(60), 1)
                .sample("$PendingTasks", NOW.minusSeconds(30), 2.5).sample("$PendingTasks", NOW, 3).build();
        assertEquals("$TargetDedicatedNodes=0;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue;"
                + "$b=[2,5,6];Zed=0.333333;a=PT1M30S;big=1234567", results("""
                a = TimeInterval_Minute * 1.5;
                $b = $PendingTasks.GetSample(3) * 2;
                Zed = 1 / 3;
                big = 1234567;
                """, samples));
    }

    @Test
    void getSampleByCountTakesTheLatestAndByIntervalsTheWindowBetweenLookBackStartAndEnd() {
        // One sample a minute where Batch takes two: the five minutes between 6 and 1 minutes ago hold half of theirs.
        Samples.Builder history = Samples.builder();
        for (int minute = 0; minute <= 10; minute++) {
            history.sample("$RunningTasks", NOW.minus(Duration.ofMinutes(minute)), minute);
        }
        Samples samples = history.sample("$RunningTasks", NOW.plusSeconds(30), 99).build();
        assertEquals("$TargetDedicatedNodes=0;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue;"
                + "last=[1,0];older=[5,4,3,2,1];percent=50", results("""
                last = $RunningTasks.GetSample(2);
                older = $RunningTasks.GetSample(TimeInterval_Minute, 6 * TimeInterval_Minute);
                percent = $RunningTasks.GetSamplePercent(TimeInterval_Minute, 6 * TimeInterval_Minute);
                """, samples));
    }

    @Test
    void vectorArithmeticAndAggregatesOfMixedListsWork() {
        Samples samples = Samples.builder().steady("$ActiveTasks", NOW.minusSeconds(60), NOW, 4).build();
        assertEquals(new Evaluation(9, 2, "terminate", "$TargetDedicatedNodes=9;$TargetLowPriorityNodes=2;"
                + "$NodeDeallocationOption=terminate;v=[4,4,4]"), FormulaEvaluator.parse("""
                v = $ActiveTasks.GetSample(TimeInterval_Minute * 2);
                $TargetDedicatedNodes = max(v + v, 1, 9);
                $TargetLowPriorityNodes = avg(v / 2, 2) - !0 + 1 * (-1 < 0) - (3 <= 2 || 1 && 0);
                $NodeDeallocationOption = terminate
                """).evaluate(samples, NOW));
    }

    @Test
    void theFullTargetNameWinsOverItsAliasAndTargetsReadThePoolsUntilAssigned() {
        Samples pool = Samples.builder().targetDedicatedNodes(7).targetLowPriorityNodes(5).build();
        assertEquals(new Evaluation(3, 6, "requeue", "$TargetDedicatedNodes=3;$TargetLowPriorityNodes=6;"
                + "$NodeDeallocationOption=requeue;before=7"), FormulaEvaluator.parse("""
                before = $TargetDedicated;
                $TargetDedicatedNodes = 3;
                $TargetDedicated = 4;
                $TargetLowPriority = $TargetLowPriorityNodes + 1;
                """).evaluate(pool, NOW));
    }

    @Test
    void aTargetThatOverflowsFailsTheEvaluation() {
        FormulaException e = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(
                "big = 1" + "0".repeat(300) + ";\n$TargetDedicatedNodes = big * big;").evaluate(Samples.none(), NOW));
        assertEquals("Line 2, Col 1: $TargetDedicatedNodes is Infinity; a target is a finite number of nodes, 0 or"
                + " more (bound the expression with max(0, min(LIMIT, ...)))", e.detail());
    }

    @Test
    void targetsAreCutToWholeNodes() {
        assertEquals(2, FormulaEvaluator.parse("$TargetDedicatedNodes = 2.99;").evaluate(Samples.none(), NOW)
                .targetDedicated());
    }

    @Test
    void aNegativeTargetFailsTheEvaluationNamingIt() {
        FormulaException e = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(
                "x = 1;\n$TargetLowPriorityNodes = 1 - 3;").evaluate(Samples.none(), NOW));
        assertEquals("AutoScaleEvaluationFailed", e.code());
        assertEquals("Line 2, Col 1: $TargetLowPriorityNodes is -2; a target is a finite number of nodes, 0 or more"
                + " (bound the expression with max(0, min(LIMIT, ...)))", e.detail());
        assertEquals("$TargetDedicatedNodes=0;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue;x=1",
                e.results());
    }

    @Test
    void anAggregateOfNoSampleAndADivisionByZeroFailTheEvaluation() {
        FormulaException empty = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(
                "$TargetDedicatedNodes = avg($PendingTasks.GetSample(TimeInterval_Minute));")
                .evaluate(Samples.none(), NOW));
        assertEquals("Line 1, Col 25: avg() has no value to work on: every vector given to it is empty (no sample in"
                + " the interval asked; guard it with GetSamplePercent)", empty.detail());
        FormulaException zero = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(
                "n = 0;\n$TargetDedicatedNodes = 4 / n;").evaluate(Samples.none(), NOW));
        assertEquals("Line 2, Col 27: division by zero", zero.detail());
    }

    @Test
    void onlyTheBranchTakenIsEvaluated() {
        assertEquals(5, FormulaEvaluator.parse("$TargetDedicatedNodes = 1 ? 5 : avg($PendingTasks.GetSample(1));")
                .evaluate(Samples.none(), NOW).targetDedicated());
    }

    @Test
    void samplesOfAVariableOutsideTheSampledOnesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Samples.builder().sample("$CurrentDedicatedNodes", NOW, 1));
        assertEquals("'$CurrentDedicatedNodes' is not a sampled service-defined variable; allowed: $ActiveTasks,"
                + " $RunningTasks, $PendingTasks, $SucceededTasks, $FailedTasks, $CPUPercent, $WallClockSeconds,"
                + " $MemoryBytes, $DiskBytes, $DiskReadBytes, $DiskWriteBytes, $DiskReadOps, $DiskWriteOps,"
                + " $NetworkInBytes, $NetworkOutBytes, $SampleNodeCount, $PreemptedNodeCount, $UsableNodeCount",
                e.getMessage());
    }

    private static String results(String formula, Samples samples) {
        return FormulaEvaluator.parse(formula).evaluate(samples, NOW).results();
    }
}
