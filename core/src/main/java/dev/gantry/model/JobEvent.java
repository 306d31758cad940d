package dev.gantry.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One thing that happened to a job, in the order it happened: the intent before a remote call and its outcome after
 * it, every state change seen, a cancel asked. A job's events are its history ({@code gantry history}).
 *
 * @param jobId the job
 * @param sequence its place in the job's history, from 1; 0 for an event not stored yet (the store numbers it)
 * @param at when it happened
 * @param kind what happened, one word ({@link #SUBMITTING}, {@link #SUBMITTED}, ...)
 * @param detail what there is to say about it, one line; never a secret's value
 */
public record JobEvent(String jobId, long sequence, Instant at, String kind, String detail) {
    /** Before the backend is asked to submit. */
    public static final String SUBMITTING = "submitting";
    /** The backend answered with its reference. */
    public static final String SUBMITTED = "submitted";
    /** A poll saw a new state. */
    public static final String STATE = "state";
    /** Before the backend is asked to cancel. */
    public static final String CANCELLING = "cancelling";

    /**
     * Checks the event and puts its detail on one line.
     *
     * @param jobId the job
     * @param sequence its place from 1, or 0 when not stored yet
     * @param at when it happened
     * @param kind one lower-case word, e.g. {@link #SUBMITTED}
     * @param detail one line; line breaks become spaces
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code sequence} is negative or {@code kind} is not one lower-case word
     */
    public JobEvent {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        EventText.sequence(sequence);
        EventText.kind(kind);
        detail = EventText.detail(detail);
    }

    /**
     * An event to store: the store gives it its sequence.
     *
     * @param jobId the job's id
     * @param at when it happened
     * @param kind what happened, e.g. {@link #CANCELLING}
     * @param detail what there is to say, one line
     * @return the event, sequence 0
     */
    public static JobEvent of(String jobId, Instant at, String kind, String detail) {
        return new JobEvent(jobId, 0, at, kind, detail);
    }
}
