package dev.gantry.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where one step of a run stands; one per step, replaced as it changes.
 *
 * @param runId the run
 * @param name the step's name, unique in its run
 * @param state where it stands
 * @param attempts how many jobs were submitted for it
 * @param evictions how many of those the cloud took back (spot capacity), counted apart from failures
 * @param nextAttemptAt in {@link StepState#RETRY_WAIT}: not before when the next attempt is submitted
 * @param reason why it stands where it does, if there is something to say
 * @param updatedAt when it last changed
 * @param retryBase attempts up to this number no longer count against the step's retries: a manual retry
 *     ({@code gantry retry}) gives the step its retries afresh; 0 until then
 */
public record StepRecord(
        String runId,
        String name,
        StepState state,
        int attempts,
        int evictions,
        Optional<Instant> nextAttemptAt,
        Optional<String> reason,
        Instant updatedAt,
        int retryBase) {

    /**
     * Checks the counts.
     *
     * @param runId the run's id
     * @param name the step's name
     * @param state where it stands
     * @param attempts jobs submitted for it, 0 or more
     * @param evictions evictions among them, 0 or more
     * @param nextAttemptAt not before when the next attempt goes, or empty
     * @param reason why it stands there, or empty
     * @param updatedAt when it last changed
     * @param retryBase attempts no longer counted against its retries, 0 to {@code attempts}
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when a count is negative or {@code retryBase} exceeds {@code attempts}
     */
    public StepRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (retryBase < 0 || retryBase > attempts) {
            throw new IllegalArgumentException("a step's retry base is between 0 and its attempts: " + retryBase);
        }
        if (attempts < 0 || evictions < 0) {
            throw new IllegalArgumentException("a step's attempts and evictions are 0 or more: " + attempts + ", "
                    + evictions);
        }
    }

    /**
     * A step never retried by hand: {@link #retryBase()} is 0.
     *
     * @param runId the run it belongs to
     * @param name its name in the run
     * @param state its state
     * @param attempts how many jobs it has had
     * @param evictions how many of them were evicted
     * @param nextAttemptAt the earliest next attempt, if waiting to retry
     * @param reason what to say of its state, if anything
     * @param updatedAt its last change
     */
    public StepRecord(String runId, String name, StepState state, int attempts, int evictions,
            Optional<Instant> nextAttemptAt, Optional<String> reason, Instant updatedAt) {
        this(runId, name, state, attempts, evictions, nextAttemptAt, reason, updatedAt, 0);
    }

    /**
     * A step as a new run starts: nothing submitted yet.
     *
     * @param runId the run's id
     * @param name the step's name
     * @param state its first state, e.g. waiting for its dependencies
     * @param now the time the run starts
     * @return the record, with no attempts or evictions
     */
    public static StepRecord of(String runId, String name, StepState state, Instant now) {
        return new StepRecord(runId, name, state, 0, 0, Optional.empty(), Optional.empty(), now);
    }

    /**
     * This step moved to another state, its attempts and evictions as they are.
     *
     * @param to the new state
     * @param nextAttempt not before when the next attempt goes, for {@link StepState#RETRY_WAIT}; else empty
     * @param why why it moved, for people
     * @param at when
     * @return a copy in the new state
     */
    public StepRecord moved(StepState to, Optional<Instant> nextAttempt, String why, Instant at) {
        return new StepRecord(runId, name, to, attempts, evictions, nextAttempt, Optional.of(why), at, retryBase);
    }

    /**
     * This step with attempt {@code number} submitted.
     *
     * @param number the attempt's number, from 1
     * @param why what was submitted, for people
     * @param at when
     * @return a copy, SUBMITTED, with {@code number} attempts
     */
    public StepRecord submitted(int number, String why, Instant at) {
        return new StepRecord(runId, name, StepState.SUBMITTED, number, evictions, Optional.empty(),
                Optional.of(why), at, retryBase);
    }

    /**
     * This step with {@code count} evictions in all, now in {@code to}.
     *
     * @param count the evictions in all, not only the new one
     * @param to the new state (waiting to retry, or failed once evictions ran out)
     * @param nextAttempt not before when the next attempt goes, or empty
     * @param why what happened, for people
     * @param at when
     * @return a copy with that count and state
     */
    public StepRecord evicted(int count, StepState to, Optional<Instant> nextAttempt, String why, Instant at) {
        return new StepRecord(runId, name, to, attempts, count, nextAttempt, Optional.of(why), at, retryBase);
    }

    /**
     * This step to run again from the start of its dependencies' outcome, with its retries afresh.
     *
     * @param why why it runs again, e.g. {@code gantry retry}
     * @param at when
     * @return a copy, WAITING, whose {@link #retryBase()} is its attempts so far
     */
    public StepRecord retried(String why, Instant at) {
        return new StepRecord(runId, name, StepState.WAITING, attempts, evictions, Optional.empty(),
                Optional.of(why), at, attempts);
    }
}
