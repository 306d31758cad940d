package dev.gantry.api.backend;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job's state, with the exit code once it ended, a human message (why it failed, which rank, ...), times and its
 * evictions.
 *
 * <p>Evictions (SPI v2): {@code evictions} counts how often the job lost its capacity so far, and
 * {@code lastEviction} says when and why the last time. A backend whose orchestrator requeues
 * ({@link EvictionHandling#REQUEUES}) reports the job PENDING or RUNNING again with the count raised; one that cannot
 * ({@link EvictionHandling#ENDS_PREEMPTED}) ends it PREEMPTED with a count of at least 1. An eviction is never
 * FAILED.
 *
 * @param state where the job is
 * @param exitCode the exit code, once the job ended with one
 * @param message what the backend knows beyond the state, for people
 * @param startedAt when the job (its first rank) started running
 * @param endedAt when it ended
 * @param evictions how many times its capacity was evicted so far, 0 or more
 * @param lastEviction the last eviction; present exactly when {@code evictions > 0}
 */
public record JobStatus(JobState state, OptionalInt exitCode, String message, Optional<Instant> startedAt,
                        Optional<Instant> endedAt, int evictions, Optional<Eviction> lastEviction) {
    /**
     * Checks the status.
     *
     * @param state the state
     * @param exitCode the exit code, or empty
     * @param message the message, may be empty text
     * @param startedAt the start, or empty
     * @param endedAt the end, or empty
     * @param evictions the evictions so far, 0 or more
     * @param lastEviction the last one, present exactly when {@code evictions > 0}
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code evictions} is negative or disagrees with {@code lastEviction}
     */
    public JobStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(lastEviction, "lastEviction");
        if (evictions < 0) {
            throw new IllegalArgumentException("evictions must be >= 0, got " + evictions);
        }
        if ((evictions > 0) != lastEviction.isPresent()) {
            throw new IllegalArgumentException("lastEviction must be present exactly when evictions > 0, got "
                    + evictions + " evictions and " + (lastEviction.isPresent() ? "a" : "no") + " last eviction");
        }
    }

    /**
     * A status without evictions (the SPI v1 form).
     *
     * @param state where the job is
     * @param exitCode its exit code, once it ended with one
     * @param message what the backend knows beyond the state
     * @param startedAt when it started
     * @param endedAt when it ended
     */
    public JobStatus(JobState state, OptionalInt exitCode, String message, Optional<Instant> startedAt,
                     Optional<Instant> endedAt) {
        this(state, exitCode, message, startedAt, endedAt, 0, Optional.empty());
    }

    /**
     * A status with a state and a message only.
     *
     * @param state where the job is
     * @param message what the backend knows beyond the state; may be empty text
     * @return the status, with no exit code, times or evictions
     */
    public static JobStatus of(JobState state, String message) {
        return new JobStatus(state, OptionalInt.empty(), message, Optional.empty(), Optional.empty());
    }

    /**
     * This status with the job's eviction history.
     *
     * @param count evictions so far, 0 or more
     * @param last the last eviction, present exactly when {@code count > 0}
     * @return a copy with that history, replacing the one it had
     * @throws IllegalArgumentException when the count and the last eviction disagree
     */
    public JobStatus withEvictions(int count, Optional<Eviction> last) {
        return new JobStatus(state, exitCode, message, startedAt, endedAt, count, last);
    }

    /**
     * This status with one more eviction, the given one last.
     *
     * @param eviction the newest eviction
     * @return a copy with the count raised by one
     */
    public JobStatus withEviction(Eviction eviction) {
        return withEvictions(evictions + 1, Optional.of(eviction));
    }

    /** {@return true when the job lost its capacity at least once and is running or waiting again (a requeue)} */
    public boolean requeued() {
        return evictions > 0 && !state.isTerminal();
    }
}
