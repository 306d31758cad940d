package dev.gantry.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing that happened to a run, in the order it happened: the run started or resumed, a step's job submitted, a
 * state seen, an eviction, a retry, a skip, a cancel, the end. A run's events are its history ({@code gantry history
 * RUN}) and what {@link RunListener}s hear.
 *
 * @param runId the run
 * @param sequence its place in the run's history, from 1; 0 for an event not stored yet (the store numbers it)
 * @param at when it happened
 * @param step the step (job) it is about; empty for the run as a whole
 * @param kind what happened, one lower-case word ({@link #SUBMITTED}, {@link #EVICTED}, ...)
 * @param detail what there is to say about it, one line; never a secret's value
 */
public record RunEvent(String runId, long sequence, Instant at, Optional<String> step, String kind, String detail) {
    /** A new run was opened. */
    public static final String STARTED = "started";
    /** An unfinished run was taken up again (by {@code start} of the same spec, or {@code drive}). */
    public static final String RESUMED = "resumed";
    /** The attempt is recorded; the backend is asked next. */
    public static final String SUBMITTING = "submitting";
    /** The backend accepted the attempt's job. */
    public static final String SUBMITTED = "submitted";
    /** A step's job was seen in a new state. */
    public static final String STATE = "state";
    /** A step's job lost its capacity (Spot eviction, a lost node). */
    public static final String EVICTED = "evicted";
    /** A step waits to be tried again. */
    public static final String RETRY = "retry";
    /** A step will not run: a dependency it needs did not succeed, or the run was cancelled first. */
    public static final String SKIPPED = "skipped";
    /** A cancel was asked for: the active jobs are cancelled, what has not started is skipped. */
    public static final String CANCELLING = "cancelling";
    /** A step's job ran past its time limit and was stopped. */
    public static final String TIMED_OUT = "timed-out";
    /** A poll the backend could not answer; the driver tries again at the next one. */
    public static final String POLL_FAILED = "poll-failed";
    /** A step published an output: {@code NAME=VALUE} (see {@code dev.gantry.core.runs.StepOutputs}). */
    public static final String OUTPUT = "output";
    /**
     * The run (or a step) reached 80% of its
     * {@code budget.maxTotal}, counting what its running jobs will cost by the next poll; said once per budget.
     */
    public static final String BUDGET_WARNING = "budget-warning";
    /**
     * The run (or a step) reached its {@code budget.maxTotal}: its active jobs are cancelled, and it ends FAILED with
     * {@code budget reached: $X of $Y}; the detail gives each job's cost. Stored before the first cancel, so a driver
     * that takes the run over goes on stopping it.
     */
    public static final String BUDGET_REACHED = "budget-reached";
    /** The run (or a step) ended. */
    public static final String ENDED = "ended";

    /**
     * Checks the event and puts its detail on one line.
     *
     * @param runId the run
     * @param sequence its place from 1, or 0 when not stored yet
     * @param at when it happened
     * @param step the step, or empty for the run
     * @param kind one lower-case word, e.g. {@link #SUBMITTED}
     * @param detail one line; line breaks become spaces
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code sequence} is negative or {@code kind} is not one lower-case word
     */
    public RunEvent {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        EventText.sequence(sequence);
        EventText.kind(kind);
        detail = EventText.detail(detail);
    }

    /**
     * An event of the run as a whole, to store.
     *
     * @param runId the run's id
     * @param at when it happened
     * @param kind what happened, e.g. {@link #STARTED}
     * @param detail what there is to say, one line
     * @return the event, not numbered yet (sequence 0)
     */
    public static RunEvent ofRun(String runId, Instant at, String kind, String detail) {
        return new RunEvent(runId, 0, at, Optional.empty(), kind, detail);
    }

    /**
     * An event of one step (job), to store.
     *
     * @param runId the run's id
     * @param step the step's or matrix instance's name
     * @param at when it happened
     * @param kind what happened, e.g. {@link #EVICTED}
     * @param detail what there is to say, one line
     * @return the event, not numbered yet (sequence 0)
     */
    public static RunEvent ofStep(String runId, String step, Instant at, String kind, String detail) {
        return new RunEvent(runId, 0, at, Optional.of(step), kind, detail);
    }

    /**
     * The event as one line of JSON ({@code run}, {@code sequence}, {@code at}, {@code step} when there is one,
     * {@code kind}, {@code detail}): what a run's event log holds and {@code gantry history --output json} prints.
     *
     * @return the JSON object, without a line break
     */
    public String jsonLine() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("run", runId);
        node.put("sequence", sequence);
        node.put("at", at.toString());
        step.ifPresent(s -> node.put("step", s));
        node.put("kind", kind);
        node.put("detail", detail);
        return node.toString();
    }
}
