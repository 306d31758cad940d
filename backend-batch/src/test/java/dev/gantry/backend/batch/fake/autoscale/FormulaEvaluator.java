package dev.gantry.backend.batch.fake.autoscale;

import java.time.Instant;
import java.util.List;

/**
 * The Batch fake's autoscale formulas: a documented subset of Batch's formula language, parsed once when a pool gets
 * its formula (pool add, enable-autoscale, evaluate-autoscale) and evaluated at each autoscale interval.
 *
 * <p>The subset: statements {@code name = expression;} (the last {@code ;} optional, {@code //} comments, at most 100
 * statements and 8,192 characters); user variables (a leading {@code $} optional), assigned before they are read;
 * numbers; {@code ?:}, {@code || && == != < <= > >= + - * /}, unary {@code -} and {@code !} on the types Batch's
 * operations table gives (doubles, doubleVecs, timeintervals); {@code min}, {@code max}, {@code avg} of any mix of
 * doubles and doubleVecs; {@code TimeInterval_Zero/Second/Minute/Hour/Day/Week}; the sampled metrics
 * ({@code $PendingTasks}, {@code $ActiveTasks}, {@code $RunningTasks}, {@code $SucceededTasks}, {@code $FailedTasks},
 * {@code $CPUPercent} and the other resource metrics, {@code $PreemptedNodeCount}, {@code $UsableNodeCount},
 * {@code $SampleNodeCount}) read only through {@code GetSample(count)}, {@code GetSample(start [, percent])},
 * {@code GetSample(start, end [, percent])} and {@code GetSamplePercent(start [, end])}; {@code $CurrentDedicatedNodes}
 * and {@code $CurrentLowPriorityNodes} as numbers; the targets {@code $TargetDedicatedNodes} and
 * {@code $TargetLowPriorityNodes} (aliases {@code $TargetDedicated}, {@code $TargetLowPriority}), read as the pool's
 * until assigned; {@code $NodeDeallocationOption = requeue | terminate | taskcompletion | retaineddata}.
 *
 * <p>Anything else (timestamps and {@code time()}, strings, the other functions and methods) is refused when parsed,
 * as Batch refuses a formula it cannot parse: {@link FormulaException#SYNTAX_ERROR} with the line and column. A
 * {@code ?:} evaluates only the branch it takes, so a {@code GetSamplePercent(...) < 70 ? ... : ...} guard keeps an
 * evaluation with too few samples from failing. A target is cut to whole nodes; a negative one fails the evaluation.
 */
public final class FormulaEvaluator {
    private final String formula;
    private final List<Statement> statements;

    private FormulaEvaluator(String formula, List<Statement> statements) {
        this.formula = formula;
        this.statements = statements;
    }

    /**
     * Parses and type-checks {@code formula}.
     *
     * @throws FormulaException {@link FormulaException#SYNTAX_ERROR} (line and column, what was found, what is
     *     allowed) or {@link FormulaException#TOO_LONG}
     */
    public static FormulaEvaluator parse(String formula) {
        return new FormulaEvaluator(formula, FormulaParser.parse(formula));
    }

    /**
     * Evaluates the formula against the pool's samples at {@code now}.
     *
     * @throws FormulaException {@link FormulaException#INSUFFICIENT_SAMPLE_DATA} when a {@code GetSample} with a
     *     sample percentage has too few samples, {@link FormulaException#EVALUATION_FAILED} for the other failures;
     *     its {@link FormulaException#results()} is the {@code results} text as far as the evaluation got
     */
    public Evaluation evaluate(Samples samples, Instant now) {
        return new FormulaRun(samples, now).run(statements);
    }

    /** The formula's text, as given. */
    public String formula() {
        return formula;
    }
}
