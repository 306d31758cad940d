package dev.gantry.backend.batch.fake.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Formulas the fake refuses when they are set, as Batch refuses a formula it cannot parse: the code, Batch's message,
 * and a detail that names the line and column, what was found and what the subset allows.
 */
class FormulaRefusalTest {
    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("$TargetDedicatedNodes = time().weekday == 1 ? 5 : 1;",
                        "Line 1, Col 25: function time() is outside the fake's subset; allowed functions: min, max,"
                                + " avg"),
                Arguments.of("x = 1;\n$TargetDedicatedNodes = sqrt(x);",
                        "Line 2, Col 25: unknown function sqrt(); allowed functions: min, max, avg"),
                Arguments.of("$TargetDedicatedNodes = $PendingTasks;",
                        "Line 1, Col 25: $PendingTasks is a sample series, not a number: read it with"
                                + " $PendingTasks.GetSample(...) or $PendingTasks.GetSamplePercent(...)"),
                Arguments.of("$PendingTasks = 3;",
                        "Line 1, Col 1: cannot assign $PendingTasks: it is a read-only service-defined variable;"
                                + " the formula sets $TargetDedicatedNodes, $TargetLowPriorityNodes,"
                                + " $NodeDeallocationOption and variables of its own"),
                Arguments.of("$TargetDedicatedNodes = cap;",
                        "Line 1, Col 25: 'cap' is used before it is assigned"),
                Arguments.of("$TargetDedicatedNodes = $PendingTask.GetSample(1);",
                        "Line 1, Col 25: only the sampled service-defined variables have methods ($ActiveTasks,"
                                + " $RunningTasks, $PendingTasks, $SucceededTasks, $FailedTasks, $CPUPercent,"
                                + " $WallClockSeconds, $MemoryBytes, $DiskBytes, $DiskReadBytes, $DiskWriteBytes,"
                                + " $DiskReadOps, $DiskWriteOps, $NetworkInBytes, $NetworkOutBytes, $SampleNodeCount,"
                                + " $PreemptedNodeCount, $UsableNodeCount); $PendingTask is not one of them"),
                Arguments.of("$TargetDedicatedNodes = 1 + TimeInterval_Minute;",
                        "Line 1, Col 27: operator '+' is not defined for double and timeinterval; the subset has"
                                + " double OP double and doubleVec OP double or doubleVec (+ - * /), double *"
                                + " timeinterval, timeinterval * or / double, timeinterval + or - timeinterval,"
                                + " comparisons of two doubles or two timeintervals, && and || of doubles, - and ! of"
                                + " a double and - of a timeinterval"),
                Arguments.of("$TargetDedicatedNodes = 1\n$NodeDeallocationOption = requeue;",
                        "Line 2, Col 1: expected ';' after the statement, found '$NodeDeallocationOption'"),
                Arguments.of("v = $PendingTasks.GetSample(1);\n$TargetDedicatedNodes = 1 > 0 ? v : 2;",
                        "Line 2, Col 31: the branches of '?:' give a doubleVec and a double; both must give the"
                                + " same type"),
                Arguments.of("$NodeDeallocationOption = drain;",
                        "Line 1, Col 27: 'drain' is used before it is assigned"),
                Arguments.of("$NodeDeallocationOption = 3;",
                        "Line 1, Col 27: $NodeDeallocationOption takes one of requeue, terminate, taskcompletion,"
                                + " retaineddata, found a double"),
                Arguments.of("mode = requeue;",
                        "Line 1, Col 8: the deallocation options (requeue, terminate, taskcompletion, retaineddata)"
                                + " can only be assigned to $NodeDeallocationOption"),
                Arguments.of("$TargetDedicatedNodes = $PendingTasks.GetSample(1);",
                        "Line 1, Col 39: $TargetDedicatedNodes takes a double (a number of nodes), found a"
                                + " doubleVec"),
                Arguments.of("n = $PendingTasks.Count();",
                        "Line 1, Col 19: method Count() is outside the fake's subset; allowed methods: GetSample,"
                                + " GetSamplePercent"),
                Arguments.of("n = $PendingTasks.GetSample(TimeInterval_Year);",
                        "Line 1, Col 29: TimeInterval_Year is not in the fake's subset; allowed intervals:"
                                + " TimeInterval_Zero, TimeInterval_Second, TimeInterval_Minute, TimeInterval_Hour,"
                                + " TimeInterval_Day, TimeInterval_Week"),
                Arguments.of("n = $PendingTasks.GetSample(1, 70);",
                        "Line 1, Col 19: GetSample takes (double count), (timeinterval start [, double"
                                + " samplePercent]) or (timeinterval start, timeinterval end [, double"
                                + " samplePercent]), found (double, double)"),
                Arguments.of("p = $PendingTasks.GetSamplePercent(5);",
                        "Line 1, Col 19: GetSamplePercent takes (timeinterval start [, timeinterval end]), found"
                                + " (double)"),
                Arguments.of("$curTime = time(\"Mon, 05 Dec 2026 10:00:00 GMT\");",
                        "Line 1, Col 17: string values (as in time(\"...\")) are outside the fake's subset, which"
                                + " has numbers, sample vectors and time intervals"),
                Arguments.of("$TargetDedicatedNodes = max(0, (2 + 3);",
                        "Line 1, Col 39: expected ',' or ')' in the arguments begun at Line 1, Col 28, found ';'"),
                Arguments.of("$TargetDedicatedNodes = 2 # 3;", "Line 1, Col 27: unexpected character '#'"),
                Arguments.of("// only a comment\n", "Line 2, Col 1: the formula has no statement; it needs at least"
                        + " one, such as $TargetDedicatedNodes = 0;"),
                Arguments.of("min = 3;", "Line 1, Col 1: cannot assign min: it is a name of the formula language"
                        + " (a function, a time interval or a deallocation option)"),
                Arguments.of("$TargetDedicatedNodes == 3;", "Line 1, Col 23: expected '=' after"
                        + " $TargetDedicatedNodes, found '=='"),
                Arguments.of("x = $NodeDeallocationOption;", "Line 1, Col 5: $NodeDeallocationOption can only be"
                        + " assigned, not read"),
                Arguments.of("$TargetDedicatedNodes = $;", "Line 1, Col 25: '$' must be followed by a variable name"
                        + " (a letter or '_' first)"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void isRefusedWhenSetNamingWhereAndWhatIsAllowed(String formula, String detail) {
        FormulaException e = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(formula));
        assertEquals("AutoScalingFormulaSyntaxError", e.code());
        assertEquals("The specified auto-scaling formula has a syntax error.", e.getMessage());
        assertEquals(Map.of("Message", detail), e.values());
        assertEquals("", e.results());
    }

    @Test
    void aFormulaOverEightKilobytesIsTooLong() {
        String formula = "x = 1;" + " ".repeat(8186);
        FormulaEvaluator.parse(formula);
        FormulaException e = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(formula + " "));
        assertEquals("AutoScalingFormulaTooLong", e.code());
        assertEquals("The specified auto-scaling formula exceeds lengths limit.", e.getMessage());
        assertEquals("the formula has 8193 characters; at most 8192 are allowed", e.detail());
    }

    @Test
    void moreThanAHundredStatementsAreRefused() {
        String hundred = "x = 1;\n".repeat(100);
        FormulaEvaluator.parse(hundred);
        FormulaException e = assertThrows(FormulaException.class, () -> FormulaEvaluator.parse(hundred + "x = 2;"));
        assertEquals("Line 101, Col 1: the formula has more than 100 statements; at most 100 are allowed",
                e.detail());
    }
}
