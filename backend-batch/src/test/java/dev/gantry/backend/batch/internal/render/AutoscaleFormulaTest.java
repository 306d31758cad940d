package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.testing.GoldenFiles;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AutoscaleFormulaTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/autoscale");
    /** What the fake's evaluator interprets: anything else in a formula fails there. */
    private static final Pattern SUBSET_TOKEN = Pattern.compile("\\$[A-Za-z]+|[A-Za-z_]+|\\d+|[-+*/<>=?:;(),.!]=?|\\s+");
    private static final java.util.Set<String> WORDS = java.util.Set.of("min", "max", "avg", "GetSample",
            "GetSamplePercent", "TimeInterval_Minute", "taskcompletion");

    @Test
    void dedicatedSpotAndMultiNodePoolsEachHaveTheirFormula() {
        GOLDEN.assertMatches("dedicated.txt", AutoscaleFormula.render(false, 1, 10));
        GOLDEN.assertMatches("spot.txt", AutoscaleFormula.render(true, 1, 10));
        GOLDEN.assertMatches("spot-two-nodes.txt", AutoscaleFormula.render(true, 2, 16));
    }

    @Test
    void theOtherTargetIsZeroAndScaleInWaitsForTasks() {
        String spot = AutoscaleFormula.render(true, 1, 10);
        assertTrue(spot.contains("$TargetLowPriorityNodes = $wanted;") && spot.contains("$TargetDedicatedNodes = 0;"));
        String dedicated = AutoscaleFormula.render(false, 1, 10);
        assertTrue(dedicated.contains("$TargetDedicatedNodes = $wanted;")
                && dedicated.contains("$TargetLowPriorityNodes = 0;"));
        assertFalse(dedicated.contains("$PreemptedNodeCount"), "dedicated nodes are never preempted");
        assertTrue(dedicated.endsWith("$NodeDeallocationOption = taskcompletion;\n"));
    }

    @Test
    void onlyTheEvaluatorsSubsetIsUsed() {
        for (String formula : new String[] {AutoscaleFormula.render(true, 4, 100), AutoscaleFormula.render(false, 1, 1)}) {
            var tokens = SUBSET_TOKEN.matcher(formula);
            int end = 0;
            while (tokens.find() && tokens.start() == end) {
                String token = tokens.group();
                assertTrue(!Character.isLetter(token.charAt(0)) || WORDS.contains(token), "outside the subset: "
                        + token);
                end = tokens.end();
            }
            assertTrue(end == formula.length(), "unexpected text at " + end + ": " + formula.substring(end));
        }
    }

    @Test
    void aPoolNeedsRoomForANode() {
        assertThrows(IllegalArgumentException.class, () -> AutoscaleFormula.render(false, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> AutoscaleFormula.render(false, 1, 0));
    }
}
