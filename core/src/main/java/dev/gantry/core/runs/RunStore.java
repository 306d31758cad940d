package dev.gantry.core.runs;

import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunLease;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.model.StepRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where workflow runs, their steps and their attempts live: the state database ({@code core.state}). A run is
 * driven by one process at a time, the holder of its {@link RunLease}; the lease expires, so that a process that was
 * killed gives the run up to the next one.
 */
public interface RunStore extends AutoCloseable {
    /** Writes a new run with its steps, in one transaction; fails when its id is taken. */
    void create(RunRecord run, List<StepRecord> steps);

    /**
     * The unfinished run of {@code run}'s workflow and spec if there is one, else {@code run}, written with its
     * steps: atomic across processes, so that two processes starting the same workflow at once share one run.
     *
     * @return the run to drive: the one found, or {@code run} itself
     */
    RunRecord open(RunRecord run, List<StepRecord> steps);

    /**
     * Sets the run's state and message, as of {@code at}; a finished state also sets its end time.
     *
     * @return whether there was such a run
     */
    boolean updateState(String runId, RunState state, Optional<String> message, Instant at);

    /** Writes the step, replacing an older version of it. */
    void saveStep(StepRecord step);

    /** Records an attempt; fails when its step already has one of its number. */
    void addAttempt(AttemptRecord attempt);

    /**
     * Records a new attempt and its step as it stands with it (SUBMITTED, its attempts raised), in one transaction:
     * the intent written before the attempt's job is submitted. Fails when the step already has an attempt of that
     * number, so that two processes never both start the same attempt.
     */
    void startAttempt(StepRecord step, AttemptRecord attempt);

    /**
     * {@link #startAttempt} for many steps ({@code attempts.get(i)} is {@code steps.get(i)}'s): the intents of one pass's
     * submissions, written before the batch is submitted. This default starts them one by one; a database starts them
     * all in one transaction, or none when one of them exists already.
     */
    default void startAttempts(List<StepRecord> steps, List<AttemptRecord> attempts) {
        if (steps.size() != attempts.size()) {
            throw new IllegalArgumentException(steps.size() + " steps, " + attempts.size() + " attempts");
        }
        for (int i = 0; i < steps.size(); i++) {
            startAttempt(steps.get(i), attempts.get(i));
        }
    }

    /** Writes an attempt's evictions and outcome (the rest never changes); fails when there is no such attempt. */
    void updateAttempt(AttemptRecord attempt);

    /** Writes the steps, each replacing its older version, in one transaction. */
    void saveSteps(List<StepRecord> steps);

    /** Appends events to their runs' histories, all in one transaction, each numbered after its run's last. */
    void append(List<RunEvent> events);

    /** The run's events, oldest first; empty for a run with none. */
    List<RunEvent> events(String runId);

    /** The run's events after {@code sequence}, oldest first: what a follower has not seen yet. */
    List<RunEvent> eventsAfter(String runId, long sequence);

    Optional<RunRecord> find(String runId);

    /** The newest run of this workflow and spec that has not finished: the one to resume. */
    Optional<RunRecord> findUnfinished(String name, String specHash);

    /** Up to {@code limit} runs, newest first; only the unfinished ones unless {@code includeFinished}. */
    List<RunRecord> list(int limit, boolean includeFinished);

    /** The run's steps, by name. */
    List<StepRecord> steps(String runId);

    /** The run's attempts, in the order they were submitted. */
    List<AttemptRecord> attempts(String runId);

    /**
     * Takes the run's lease for {@code ttl} from now when no one holds it, its holder's time ran out, or
     * {@code holder} holds it already (then it is renewed); atomic across processes.
     *
     * @return the lease; empty when another holder's lease has not expired
     */
    Optional<RunLease> acquireLease(String runId, String holder, Duration ttl);

    /**
     * As {@link #acquireLease(String, String, Duration)}, also taking a lease that has not expired when
     * {@code abandoned} says its holder is gone (a process on this machine that no longer runs), so that a run whose
     * driver was killed is picked up at once rather than when the lease runs out. {@code abandoned} is asked inside the
     * transaction and must be quick.
     */
    Optional<RunLease> acquireLease(String runId, String holder, Duration ttl, Predicate<RunLease> abandoned);

    /** The run's lease as stored, expired or not; empty when no one holds it. */
    Optional<RunLease> lease(String runId);

    /**
     * Extends the lease {@code holder} holds to {@code ttl} from now, even if it expired meanwhile, as long as no
     * one else took it.
     *
     * @return the lease; empty when {@code holder} does not hold it (anymore)
     */
    Optional<RunLease> renewLease(String runId, String holder, Duration ttl);

    /**
     * Gives up the lease, so that another process may drive the run at once.
     *
     * @return whether {@code holder} held it
     */
    boolean releaseLease(String runId, String holder);

    /** Closes what the store holds open (a database connection); its records stay. */
    @Override
    default void close() {
    }
}
