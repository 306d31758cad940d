package dev.gantry.core.runs;

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
 */
public record StepRecord(
        String runId,
        String name,
        StepState state,
        int attempts,
        int evictions,
        Optional<Instant> nextAttemptAt,
        Optional<String> reason,
        Instant updatedAt) {

    public StepRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (attempts < 0 || evictions < 0) {
            throw new IllegalArgumentException("a step's attempts and evictions are 0 or more: " + attempts + ", "
                    + evictions);
        }
    }

    /** A step as a new run starts: nothing submitted yet. */
    public static StepRecord of(String runId, String name, StepState state, Instant now) {
        return new StepRecord(runId, name, state, 0, 0, Optional.empty(), Optional.empty(), now);
    }
}
