package dev.gantry.backend.batch.fake.autoscale;

import java.util.Map;

/**
 * A formula Batch refuses, or an evaluation that fails, in the shape Batch answers it: an error code, Batch's
 * message, and one detail value named {@code Message} that starts with the line and column
 * ({@code Line 1, Col 37: Insufficient data from data set: $CPUPercent wanted 10%, received 0%}).
 *
 * <p>Where the fake puts it: a refused formula is the error body of the pool add, enable-autoscale or
 * evaluate-autoscale call ({@code 400}; {@code values} as {@code [{"key": "Message", "value": ...}]}); an evaluation
 * that fails is the {@code error} of the pool's {@code autoScaleRun}, with {@link #results()} as its {@code results}
 * ({@code values} as {@code [{"name": "Message", "value": ...}]}).
 */
public final class FormulaException extends RuntimeException {
    /** Batch's code for a formula it cannot parse; the fake also uses it for what is outside its subset. */
    public static final String SYNTAX_ERROR = "AutoScalingFormulaSyntaxError";
    /** Batch's code for a formula over 8,192 characters. */
    public static final String TOO_LONG = "AutoScalingFormulaTooLong";
    /** Batch's code for an evaluation whose {@code GetSample} had fewer samples than it required. */
    public static final String INSUFFICIENT_SAMPLE_DATA = "InsufficientSampleData";
    /**
     * The fake's own code for the other evaluation failures (an aggregate of no value, a negative target, division by
     * zero): Batch's docs do not publish theirs.
     */
    public static final String EVALUATION_FAILED = "AutoScaleEvaluationFailed";

    private final String code;
    private final String detail;
    private final String results;

    private FormulaException(String code, String batchMessage, String detail, String results) {
        super(batchMessage);
        this.code = code;
        this.detail = detail;
        this.results = results;
    }

    static FormulaException syntax(Position at, String what) {
        return new FormulaException(SYNTAX_ERROR, "The specified auto-scaling formula has a syntax error.",
                at + ": " + what, "");
    }

    static FormulaException tooLong(int length, int limit) {
        return new FormulaException(TOO_LONG, "The specified auto-scaling formula exceeds lengths limit.",
                "the formula has " + length + " characters; at most " + limit + " are allowed", "");
    }

    static FormulaException insufficientData(Position at, String variable, String wanted, String received,
            String results) {
        return new FormulaException(INSUFFICIENT_SAMPLE_DATA, "Autoscale evaluation failed due to insufficient"
                + " sample data", at + ": Insufficient data from data set: " + variable + " wanted " + wanted
                + "%, received " + received + "%", results);
    }

    static FormulaException evaluationFailed(Position at, String what, String results) {
        return new FormulaException(EVALUATION_FAILED, "Autoscale evaluation failed", at + ": " + what, results);
    }

    /** Batch's error code. */
    public String code() {
        return code;
    }

    /** The detail, starting with {@code Line L, Col C:}: the value of Batch's {@code Message} entry. */
    public String detail() {
        return detail;
    }

    /** The error's {@code values}: the one entry Batch gives, {@code Message} = {@link #detail()}. */
    public Map<String, String> values() {
        return Map.of("Message", detail);
    }

    /** For an evaluation that failed, the {@code results} text as far as it got (targets, then variables). */
    public String results() {
        return results;
    }

    @Override
    public String toString() {
        return code + ": " + getMessage() + " (" + detail + ")";
    }
}
