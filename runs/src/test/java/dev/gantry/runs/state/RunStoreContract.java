package dev.gantry.runs.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GantryException;
import dev.gantry.core.ManualClock;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.RunLease;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link SqlRunStore} does on either database. */
abstract class RunStoreContract {
    /** With nanoseconds, so that every time is seen to round-trip whole. */
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456789Z");
    static final Duration TTL = Duration.ofSeconds(30);

    @TempDir
    Path state;

    final ManualClock clock = new ManualClock(T0);
    private final List<RunStore> opened = new ArrayList<>();

    /** A new store on this test's database, reading {@code clock}; each call another connection. */
    abstract RunStore open(Clock clock);

    /** The job store of this test's database. */
    abstract JobStore jobs();

    /** A connection to this test's database, outside Gantry, schema not brought up to date. */
    abstract Connection connectRaw() throws SQLException;

    RunStore store() {
        RunStore store = open(clock);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(RunStore::close);
    }

    static RunRecord run(String id, String name, String hash, Instant created) {
        return new RunRecord(id, name, "flows/" + name + ".yaml", hash, Optional.empty(), Optional.empty(),
                "azure-retail", LocalDate.parse("2026-11-30"), "0.9.0", "manual", RunState.RUNNING,
                Optional.empty(), created, created, Optional.empty());
    }

    /** A run with every optional field set. */
    static RunRecord full(String id, Instant created) {
        return new RunRecord(id, "train", "flows/train.yaml", "sha256:abc", Optional.of("0123abcd"),
                Optional.of(true), "azure-retail", LocalDate.parse("2026-11-30"), "0.9.0", "azure", RunState.FAILED,
                Optional.of("step eval failed"), created, created.plusMillis(1_500),
                Optional.of(created.plusSeconds(9)));
    }

    @Test
    void aRunAndItsStepsRoundTripWithEveryField() {
        RunStore store = store();
        RunRecord full = full("r-1", T0);
        StepRecord prepare = new StepRecord("r-1", "prepare", StepState.RETRY_WAIT, 2, 1,
                Optional.of(T0.plusNanos(7)), Optional.of("evicted"), T0.plusSeconds(1));
        StepRecord eval = StepRecord.of("r-1", "eval", StepState.WAITING, T0);
        store.create(full, List.of(prepare, eval));
        assertEquals(Optional.of(full), store.find("r-1"));
        assertEquals(List.of(eval, prepare), store.steps("r-1"), "by name");
        RunRecord bare = run("r-2", "train", "h", T0.plusSeconds(1));
        store.create(bare, List.of());
        assertEquals(Optional.of(bare), store.find("r-2"));
        assertEquals(List.of(), store.steps("r-2"));
        assertEquals(Optional.empty(), store.find("missing"));
        RunRecord clean = new RunRecord("r-3", "train", "t.yaml", "h", Optional.of("c"), Optional.of(false), "s",
                LocalDate.parse("2026-01-02"), "v", "b", RunState.RUNNING, Optional.empty(), T0, T0,
                Optional.empty());
        store.create(clean, List.of());
        assertEquals(Optional.of(clean), store.find("r-3"), "a clean tree is false, not unknown");
    }

    @Test
    void aRunIsCreatedWithAllItsStepsOrNotAtAll() {
        RunStore store = store();
        StepRecord a = StepRecord.of("r-1", "a", StepState.READY, T0);
        assertThrows(GantryException.class, () -> store.create(run("r-1", "w", "h", T0), List.of(a, a)));
        assertEquals(Optional.empty(), store.find("r-1"));
        assertEquals(List.of(), store.steps("r-1"));
        store.create(run("r-1", "w", "h", T0), List.of(a));
        assertThrows(GantryException.class, () -> store.create(run("r-1", "other", "h", T0), List.of()),
                "an id is taken once");
        assertThrows(IllegalArgumentException.class, () -> store.create(run("r-2", "w", "h", T0),
                List.of(StepRecord.of("r-1", "b", StepState.READY, T0))));
    }

    @Test
    void aStateUpdateSetsTheEndOfAFinishedRunOnly() {
        RunStore store = store();
        RunRecord run = run("r-1", "w", "h", T0);
        store.create(run, List.of());
        Instant later = T0.plusSeconds(5);
        assertTrue(store.updateState("r-1", RunState.RUNNING, Optional.of("resumed"), later));
        assertEquals(new RunRecord("r-1", "w", run.specFile(), "h", Optional.empty(), Optional.empty(),
                run.catalogSource(), run.catalogDate(), run.gantryVersion(), "manual", RunState.RUNNING,
                Optional.of("resumed"), T0, later, Optional.empty()), store.find("r-1").orElseThrow());
        Instant end = T0.plusSeconds(9);
        assertTrue(store.updateState("r-1", RunState.CANCELLED, Optional.empty(), end));
        RunRecord cancelled = store.find("r-1").orElseThrow();
        assertEquals(RunState.CANCELLED, cancelled.state());
        assertEquals(Optional.empty(), cancelled.message());
        assertEquals(end, cancelled.updatedAt());
        assertEquals(Optional.of(end), cancelled.endedAt());
        assertFalse(store.updateState("missing", RunState.FAILED, Optional.empty(), end));
    }

    @Test
    void aSavedStepReplacesItsVersionOrIsAdded() {
        RunStore store = store();
        StepRecord a = StepRecord.of("r-1", "a", StepState.READY, T0);
        store.create(run("r-1", "w", "h", T0), List.of(a));
        StepRecord running = new StepRecord("r-1", "a", StepState.RUNNING, 1, 0, Optional.empty(),
                Optional.of("job j-1"), T0.plusSeconds(1));
        store.saveStep(running);
        StepRecord retry = new StepRecord("r-1", "a", StepState.RETRY_WAIT, 1, 1, Optional.of(T0.plusSeconds(60)),
                Optional.of("evicted"), T0.plusSeconds(2));
        store.saveStep(retry);
        StepRecord b = StepRecord.of("r-1", "b", StepState.SKIPPED, T0.plusSeconds(3));
        store.saveStep(b);
        assertEquals(List.of(retry, b), store.steps("r-1"));
        StepRecord again = new StepRecord("r-1", "a", StepState.SUCCEEDED, 2, 1, Optional.empty(),
                Optional.empty(), T0.plusSeconds(4));
        store.saveStep(again);
        assertEquals(List.of(again, b), store.steps("r-1"), "emptied fields are emptied");
    }

    @Test
    void attemptsRoundTripInTheOrderSubmittedAndEachNumberOnce() {
        RunStore store = store();
        store.create(run("r-1", "w", "h", T0), List.of(StepRecord.of("r-1", "a", StepState.READY, T0)));
        AttemptRecord first = new AttemptRecord("r-1", "b", 1, "j-1", OptionalDouble.of(0.1234), true, T0);
        AttemptRecord second = new AttemptRecord("r-1", "a", 1, "j-2", OptionalDouble.empty(), false,
                T0.plusSeconds(1));
        AttemptRecord third = new AttemptRecord("r-1", "b", 2, "j-3", OptionalDouble.of(2.5), false,
                T0.plusSeconds(2));
        store.addAttempt(third);
        store.addAttempt(first);
        store.addAttempt(second);
        store.addAttempt(new AttemptRecord("r-2", "a", 1, "j-9", OptionalDouble.empty(), false, T0));
        assertEquals(List.of(first, second, third), store.attempts("r-1"));
        assertThrows(GantryException.class, () -> store.addAttempt(new AttemptRecord("r-1", "b", 2, "j-4",
                OptionalDouble.empty(), false, T0.plusSeconds(3))));
        assertEquals(3, store.attempts("r-1").size());
        assertEquals(List.of(), store.attempts("missing"));
    }

    @Test
    void anAttemptNewAndEndedRoundTripsItsEvictionsAndOutcome() {
        RunStore store = store();
        AttemptRecord ended = new AttemptRecord("r-1", "a", 1, "j-1", OptionalDouble.empty(), true, T0)
                .withEvictions(2).ended(AttemptOutcome.PREEMPTED);
        store.addAttempt(ended);
        AttemptRecord fresh = new AttemptRecord("r-1", "a", 2, "j-2", OptionalDouble.empty(), true, T0.plusSeconds(1));
        store.addAttempt(fresh);
        assertEquals(List.of(ended, fresh), store.attempts("r-1"));
        assertEquals(0, store.attempts("r-1").get(1).evictions());
        assertEquals(Optional.empty(), store.attempts("r-1").get(1).outcome(), "not ended: no outcome");
    }

    @Test
    void anAttemptKeepsTheRegionItWasPlannedInAndOneWithoutReadsAsThePlannedRegion() {
        RunStore store = store();
        AttemptRecord moved = new AttemptRecord("r-1", "a", 1, "j-1", OptionalDouble.of(0.03), true,
                Optional.of("westus2"), T0);
        AttemptRecord asPlanned = new AttemptRecord("r-1", "a", 2, "j-2", OptionalDouble.empty(), true,
                T0.plusSeconds(1));
        store.addAttempt(moved);
        store.addAttempt(asPlanned);
        store.updateAttempt(moved.withEvictions(1).ended(AttemptOutcome.PREEMPTED));
        assertEquals(List.of(Optional.of("westus2"), Optional.empty()), store.attempts("r-1").stream()
                .map(AttemptRecord::region).toList(), "kept through an update; empty stays empty");
    }

    @Test
    void startingAnAttemptWritesItAndItsStepOrNeither() {
        RunStore store = store();
        StepRecord ready = StepRecord.of("r-1", "a", StepState.READY, T0);
        store.create(run("r-1", "w", "h", T0), List.of(ready));
        StepRecord submitted = new StepRecord("r-1", "a", StepState.SUBMITTED, 1, 0, Optional.empty(),
                Optional.of("job j-1"), T0.plusSeconds(1));
        AttemptRecord first = new AttemptRecord("r-1", "a", 1, "j-1", OptionalDouble.of(1.5), true, T0.plusSeconds(1));
        store.startAttempt(submitted, first);
        assertEquals(List.of(first), store.attempts("r-1"));
        assertEquals(List.of(submitted), store.steps("r-1"));
        StepRecord again = new StepRecord("r-1", "a", StepState.SUBMITTED, 1, 0, Optional.empty(),
                Optional.of("job j-1b"), T0.plusSeconds(2));
        AttemptRecord duplicate = new AttemptRecord("r-1", "a", 1, "j-1b", OptionalDouble.empty(), false,
                T0.plusSeconds(2));
        assertThrows(GantryException.class, () -> store.startAttempt(again, duplicate),
                "another process started that attempt first");
        assertEquals(List.of(first), store.attempts("r-1"));
        assertEquals(List.of(submitted), store.steps("r-1"), "the step is left as the first start wrote it");
        StepRecord b = new StepRecord("r-1", "b", StepState.SUBMITTED, 1, 0, Optional.empty(), Optional.empty(),
                T0.plusSeconds(3));
        AttemptRecord ofB = new AttemptRecord("r-1", "b", 1, "j-2", OptionalDouble.empty(), false, T0.plusSeconds(3));
        store.startAttempt(b, ofB);
        assertEquals(List.of(submitted, b), store.steps("r-1"), "a step not created with the run is added");
        assertThrows(IllegalArgumentException.class, () -> store.startAttempt(b, first), "another step's attempt");
    }

    @Test
    void anAttemptsEvictionsAndOutcomeAreUpdatedAndTheRestKept() {
        RunStore store = store();
        AttemptRecord attempt = new AttemptRecord("r-1", "a", 1, "j-1", OptionalDouble.of(0.5), true, T0);
        AttemptRecord other = new AttemptRecord("r-1", "a", 2, "j-2", OptionalDouble.empty(), false,
                T0.plusSeconds(1));
        store.addAttempt(attempt);
        store.addAttempt(other);
        AttemptRecord evicted = attempt.withEvictions(3);
        store.updateAttempt(evicted);
        assertEquals(List.of(evicted, other), store.attempts("r-1"));
        AttemptRecord ended = evicted.ended(AttemptOutcome.MOVED);
        store.updateAttempt(ended);
        assertEquals(List.of(ended, other), store.attempts("r-1"));
        for (AttemptOutcome outcome : AttemptOutcome.values()) {
            store.updateAttempt(other.ended(outcome));
            assertEquals(Optional.of(outcome), store.attempts("r-1").get(1).outcome());
        }
        assertThrows(GantryException.class, () -> store.updateAttempt(new AttemptRecord("r-1", "a", 3, "j-3",
                OptionalDouble.empty(), false, T0).ended(AttemptOutcome.FAILED)), "never recorded");
        assertThrows(GantryException.class, () -> store.updateAttempt(new AttemptRecord("r-9", "a", 1, "j-1",
                OptionalDouble.empty(), false, T0)));
        assertEquals(2, store.attempts("r-1").size());
    }

    @Test
    void severalStepsAreSavedInOneCall() {
        RunStore store = store();
        StepRecord a = StepRecord.of("r-1", "a", StepState.READY, T0);
        store.create(run("r-1", "w", "h", T0), List.of(a));
        StepRecord skippedA = new StepRecord("r-1", "a", StepState.SKIPPED, 0, 0, Optional.empty(),
                Optional.of("run cancelled"), T0.plusSeconds(1));
        StepRecord b = StepRecord.of("r-1", "b", StepState.SKIPPED, T0.plusSeconds(1));
        StepRecord c = new StepRecord("r-1", "c", StepState.RETRY_WAIT, 2, 1, Optional.of(T0.plusSeconds(60)),
                Optional.of("evicted"), T0.plusSeconds(1), 1);
        store.saveSteps(List.of(skippedA, b, c));
        assertEquals(List.of(skippedA, b, c), store.steps("r-1"));
        store.saveSteps(List.of());
        assertEquals(List.of(skippedA, b, c), store.steps("r-1"), "nothing to save");
        assertThrows(IllegalArgumentException.class, () -> store.saveSteps(List.of(a, b, a)), "which one is meant?");
        assertEquals(List.of(skippedA, b, c), store.steps("r-1"));
    }

    @Test
    void eachRunsEventsAreNumberedFromOneAndReadAfterAPoint() {
        RunStore store = store();
        RunEvent started = RunEvent.ofRun("r-1", T0, RunEvent.STARTED, "3 steps");
        RunEvent submitting = RunEvent.ofStep("r-1", "a", T0.plusNanos(1), RunEvent.SUBMITTING, "attempt 1");
        RunEvent other = RunEvent.ofRun("r-2", T0, RunEvent.STARTED, "1 step");
        store.append(List.of(started, other, submitting));
        store.append(List.of());
        RunEvent evicted = RunEvent.ofStep("r-1", "a", T0.plusSeconds(5), RunEvent.EVICTED, "spot\nreclaimed");
        store.append(List.of(evicted));
        store.append(List.of(RunEvent.ofRun("r-2", T0.plusSeconds(6), RunEvent.ENDED, "succeeded")));
        List<RunEvent> history = store.events("r-1");
        assertEquals(List.of(new RunEvent("r-1", 1, T0, Optional.empty(), "started", "3 steps"),
                new RunEvent("r-1", 2, T0.plusNanos(1), Optional.of("a"), "submitting", "attempt 1"),
                new RunEvent("r-1", 3, T0.plusSeconds(5), Optional.of("a"), "evicted", "spot reclaimed")), history);
        assertEquals(List.of(1L, 2L), store.events("r-2").stream().map(RunEvent::sequence).toList(),
                "each run numbered on its own");
        assertEquals(history.subList(1, 3), store.eventsAfter("r-1", 1));
        assertEquals(history, store.eventsAfter("r-1", 0));
        assertEquals(List.of(), store.eventsAfter("r-1", 3), "nothing new");
        assertEquals(List.of(), store.events("missing"));
    }

    @Test
    void eventsAppendedByTwoProcessesAtOnceGetDistinctConsecutiveNumbers() throws Exception {
        int writers = 2;
        int batches = 25;
        List<RunStore> stores = List.of(store(), store());
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                RunStore writer = stores.get(i);
                String detail = "writer " + i;
                runs.add(pool.submit(() -> {
                    start.await();
                    for (int batch = 0; batch < batches; batch++) {
                        // Two events a batch, and one of another run, so that a batch numbers two runs.
                        writer.append(List.of(RunEvent.ofRun("r-1", T0, RunEvent.STATE, detail),
                                RunEvent.ofRun("r-2", T0, RunEvent.STATE, detail),
                                RunEvent.ofRun("r-1", T0, RunEvent.STATE, detail)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<RunEvent> history = stores.get(0).events("r-1");
        assertEquals(LongStream.rangeClosed(1, 2L * writers * batches).boxed().toList(),
                history.stream().map(RunEvent::sequence).toList());
        for (int i = 0; i < history.size(); i += 2) {
            assertEquals(history.get(i).detail(), history.get(i + 1).detail(), "a batch's events stay together");
        }
        assertEquals(LongStream.rangeClosed(1, (long) writers * batches).boxed().toList(),
                stores.get(1).events("r-2").stream().map(RunEvent::sequence).toList());
    }

    @Test
    void theRunToResumeIsTheNewestUnfinishedOneOfItsWorkflowAndSpec() {
        RunStore store = store();
        assertEquals(Optional.empty(), store.findUnfinished("w", "h"));
        store.create(run("old", "w", "h", T0), List.of());
        store.create(run("new", "w", "h", T0.plusSeconds(10)), List.of());
        store.create(run("newest-done", "w", "h", T0.plusSeconds(20)), List.of());
        store.updateState("newest-done", RunState.SUCCEEDED, Optional.empty(), T0.plusSeconds(30));
        store.create(run("other-spec", "w", "h2", T0.plusSeconds(40)), List.of());
        store.create(run("other-name", "w2", "h", T0.plusSeconds(50)), List.of());
        assertEquals("new", store.findUnfinished("w", "h").orElseThrow().id());
        assertEquals("other-spec", store.findUnfinished("w", "h2").orElseThrow().id());
        store.updateState("new", RunState.FAILED, Optional.empty(), T0.plusSeconds(60));
        assertEquals("old", store.findUnfinished("w", "h").orElseThrow().id());
        store.updateState("old", RunState.CANCELLED, Optional.empty(), T0.plusSeconds(60));
        assertEquals(Optional.empty(), store.findUnfinished("w", "h"));
    }

    @Test
    void runsAreListedNewestFirstUpToTheLimitFinishedOnlyWhenAsked() {
        RunStore store = store();
        store.create(run("a", "w", "h", T0), List.of());
        // Half a second after: a shorter text than T0's plus 5 s, and still in time order.
        store.create(run("b", "w", "h", T0.plusMillis(500)), List.of());
        store.create(run("c", "w", "h", T0.plusSeconds(5)), List.of());
        store.create(run("d", "w", "h", T0.plusSeconds(5)), List.of());
        store.updateState("c", RunState.SUCCEEDED, Optional.empty(), T0.plusSeconds(6));
        assertEquals(List.of("d", "c", "b", "a"), ids(store.list(10, true)), "a tie is broken by id");
        assertEquals(List.of("d", "c"), ids(store.list(2, true)));
        assertEquals(List.of("d", "b", "a"), ids(store.list(10, false)));
        assertEquals(List.of("d", "b"), ids(store.list(2, false)));
        assertEquals(List.of(), store.list(0, true));
        assertThrows(IllegalArgumentException.class, () -> store.list(-1, true));
    }

    private static List<String> ids(List<RunRecord> runs) {
        return runs.stream().map(RunRecord::id).toList();
    }

    @Test
    void aLeaseIsTakenWhenFreeAndRefusedToAnotherHolderUntilItExpires() {
        RunStore store = store();
        assertEquals(Optional.of(new RunLease("r-1", "p1", T0.plus(TTL))), store.acquireLease("r-1", "p1", TTL));
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p2", TTL));
        clock.advance(TTL.minusNanos(1));
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p2", TTL), "one nanosecond before it expires");
        assertEquals(Optional.of(new RunLease("r-2", "p2", clock.instant().plus(TTL))),
                store.acquireLease("r-2", "p2", TTL), "each run its own lease");
        clock.advance(Duration.ofNanos(1));
        RunLease taken = store.acquireLease("r-1", "p2", TTL).orElseThrow();
        assertEquals(new RunLease("r-1", "p2", T0.plus(TTL).plus(TTL)), taken, "expired: anyone may take it");
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p1", TTL), "the old holder has lost it");
        assertEquals(Optional.of(taken), store.lease("r-1"));
    }

    @Test
    void itsHolderTakesItAgainOrRenewsItToExtendIt() {
        RunStore store = store();
        store.acquireLease("r-1", "p1", TTL);
        clock.advance(Duration.ofSeconds(20));
        assertEquals(Optional.of(new RunLease("r-1", "p1", clock.instant().plus(TTL))),
                store.acquireLease("r-1", "p1", TTL), "the same holder: renewed");
        clock.advance(Duration.ofSeconds(20));
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p2", TTL), "still held thanks to the renewal");
        assertEquals(Optional.of(new RunLease("r-1", "p1", clock.instant().plus(Duration.ofMinutes(5)))),
                store.renewLease("r-1", "p1", Duration.ofMinutes(5)));
        assertEquals(Optional.empty(), store.renewLease("r-1", "p2", TTL), "only its holder renews it");
        assertEquals(Optional.empty(), store.renewLease("r-9", "p1", TTL), "nor a lease no one took");
        clock.advance(Duration.ofMinutes(10));
        assertTrue(store.renewLease("r-1", "p1", TTL).isPresent(), "expired but not taken: still its holder's");
        clock.advance(TTL);
        store.acquireLease("r-1", "p2", TTL).orElseThrow();
        assertEquals(Optional.empty(), store.renewLease("r-1", "p1", TTL), "taken by another: lost");
        assertThrows(IllegalArgumentException.class, () -> store.acquireLease("r-1", "p2", Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> store.renewLease("r-1", "p2", Duration.ofSeconds(-1)));
    }

    @Test
    void aReleasedLeaseIsFreeAtOnceButOnlyItsHolderReleasesIt() {
        RunStore store = store();
        assertFalse(store.releaseLease("r-1", "p1"), "nothing to release");
        store.acquireLease("r-1", "p1", TTL);
        assertFalse(store.releaseLease("r-1", "p2"));
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p2", TTL));
        assertTrue(store.releaseLease("r-1", "p1"));
        assertEquals(Optional.empty(), store.lease("r-1"));
        assertTrue(store.acquireLease("r-1", "p2", TTL).isPresent());
        assertEquals(Optional.empty(), store.renewLease("r-1", "p1", TTL));
    }

    @Test
    void anUnexpiredLeaseIsTakenOverOnlyWhenItsHolderIsSaidToBeGone() {
        RunStore store = store();
        RunLease held = store.acquireLease("r-1", "p1", TTL).orElseThrow();
        List<RunLease> asked = new ArrayList<>();
        assertEquals(Optional.empty(), store.acquireLease("r-1", "p2", TTL, lease -> {
            asked.add(lease);
            return false;
        }), "its holder still runs");
        assertEquals(List.of(held), asked, "asked about the lease as stored");
        assertEquals(Optional.of(held), store.lease("r-1"));
        clock.advance(Duration.ofSeconds(1));
        RunLease taken = new RunLease("r-1", "p2", clock.instant().plus(TTL));
        assertEquals(Optional.of(taken), store.acquireLease("r-1", "p2", TTL, lease -> true), "its holder is gone");
        assertEquals(Optional.of(taken), store.lease("r-1"));
        assertEquals(Optional.empty(), store.renewLease("r-1", "p1", TTL), "the old holder has lost it");
        asked.clear();
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Optional.of(new RunLease("r-1", "p2", clock.instant().plus(TTL))),
                store.acquireLease("r-1", "p2", TTL, lease -> {
                    asked.add(lease);
                    return false;
                }), "its own holder renews it");
        assertEquals(List.of(), asked, "no one to ask about: it is the taker's own");
        assertEquals(Optional.of(new RunLease("r-2", "p1", clock.instant().plus(TTL))),
                store.acquireLease("r-2", "p1", TTL, lease -> false), "a free lease is taken whatever is said");
    }

    @Test
    void theStoredLeaseIsReadExpiredOrNot() {
        RunStore store = store();
        assertEquals(Optional.empty(), store.lease("r-1"));
        RunLease lease = store.acquireLease("r-1", "p1", TTL).orElseThrow();
        clock.advance(TTL.multipliedBy(2));
        assertEquals(Optional.of(lease), store.lease("r-1"), "expired, still stored");
        store.releaseLease("r-1", "p1");
        assertEquals(Optional.empty(), store.lease("r-1"));
    }

    @Test
    void processesRacingForOneLeaseLeaveItToOne() throws Exception {
        for (int round = 0; round < 5; round++) {
            String runId = "r-" + round;
            List<Optional<RunLease>> tries = race(6, (store, i) -> store.acquireLease(runId, "p" + i, TTL));
            List<RunLease> won = tries.stream().flatMap(Optional::stream).toList();
            assertEquals(1, won.size(), "round " + round + ": " + won);
            assertEquals(Optional.of(won.get(0)), store().lease(runId));
        }
    }

    /** What {@code racers} stores, each its own connection, do at the same moment, in the racers' order. */
    private <T> List<T> race(int racers, RaceStep<T> step) throws Exception {
        List<RunStore> stores = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            stores.add(store());
        }
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> runs = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                RunStore racer = stores.get(i);
                int index = i;
                runs.add(pool.submit(() -> {
                    start.await();
                    return step.run(racer, index);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> run : runs) {
                results.add(run.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One racer's move. */
    @FunctionalInterface
    private interface RaceStep<T> {
        T run(RunStore store, int racer) throws Exception;
    }

    @Test
    void processesOpeningTheSameWorkflowAtOnceShareOneRun() throws Exception {
        List<String> opened = race(6, (racer, i) -> racer.open(run("r-" + i, "w", "h", T0),
                List.of(StepRecord.of("r-" + i, "a", StepState.WAITING, T0))).id());
        assertEquals(1, opened.stream().distinct().count(), opened.toString());
        RunStore store = store();
        assertEquals(1, store.list(10, true).size());
        store.updateState(opened.get(0), RunState.SUCCEEDED, Optional.empty(), T0.plusSeconds(1));
        assertEquals("r-new", store.open(run("r-new", "w", "h", T0.plusSeconds(2)), List.of()).id(),
                "a finished run is not opened again");
        assertEquals("r-new", store.open(run("r-other", "w", "h", T0.plusSeconds(3)), List.of()).id());
        assertEquals("r-x", store.open(run("r-x", "w", "changed", T0.plusSeconds(3)), List.of()).id(),
                "another spec is another run");
    }

    @Test
    void aDatabaseOfTheJobsSchemaGainsTheRunsAndTheirHistoriesWithItsJobsKept() throws Exception {
        try (Connection connection = connectRaw()) {
            atVersion2WithAJob(connection);
        }
        JobRecord job = JobRecord.submitting("old-1", "w", Optional.empty(), "manual", "p", T0);
        JobStore jobs = jobs();
        try {
            assertEquals(List.of(job), jobs.list());
            assertEquals(1, jobs.history("old-1").size());
        } finally {
            jobs.close();
        }
        RunStore store = store();
        store.create(run("r-1", "w", "h", T0), List.of(StepRecord.of("r-1", "a", StepState.READY, T0)));
        AttemptRecord attempt = new AttemptRecord("r-1", "a", 1, "old-1", OptionalDouble.empty(), false, T0);
        store.addAttempt(attempt);
        store.updateAttempt(attempt.withEvictions(1).ended(AttemptOutcome.PREEMPTED));
        assertEquals(List.of(attempt.withEvictions(1).ended(AttemptOutcome.PREEMPTED)), store.attempts("r-1"));
        store.append(List.of(RunEvent.ofStep("r-1", "a", T0, RunEvent.SUBMITTED, "job old-1")));
        assertEquals(1, store.events("r-1").get(0).sequence());
        try (Connection connection = connectRaw(); Statement statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT name FROM gantry_schema ORDER BY version")) {
            List<String> steps = new ArrayList<>();
            while (rows.next()) {
                steps.add(rows.getString(1));
            }
            assertEquals(Migrations.STEPS, steps);
            assertTrue(steps.contains("V5__attempt_regions"), "brought from version 2 past 3 and 4: " + steps);
        }
    }

    @Test
    void theAttemptsOfAVersion3DatabaseAreReadNotEvictedAndNotEnded() throws Exception {
        try (Connection connection = connectRaw()) {
            atVersion(connection, 3);
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO run_attempts (run_id, step, number, job_id, price_per_hour, "
                        + "spot, created_at) VALUES ('r-1', 'a', 1, 'j-1', 0.25, TRUE, '"
                        + SqlJobStore.TIME.format(T0) + "')");
            }
        }
        RunStore store = store();
        AttemptRecord attempt = new AttemptRecord("r-1", "a", 1, "j-1", OptionalDouble.of(0.25), true, T0);
        assertEquals(List.of(attempt), store.attempts("r-1"));
        store.updateAttempt(attempt.ended(AttemptOutcome.SUCCEEDED));
        assertEquals(List.of(attempt.ended(AttemptOutcome.SUCCEEDED)), store.attempts("r-1"));
    }

    /** What a Gantry of schema version 2 left: its two steps applied, one job with one event. */
    private static void atVersion2WithAJob(Connection connection) throws SQLException, IOException {
        atVersion(connection, 2);
        String at = SqlJobStore.TIME.format(T0);
        try (PreparedStatement job = connection.prepareStatement("INSERT INTO jobs (id, workload, backend, stage, "
                + "state, message, placement, created_at, updated_at) VALUES ('old-1', 'w', 'manual', 'SUBMITTING', "
                + "'PENDING', 'submitting', 'p', ?, ?)");
             PreparedStatement event = connection.prepareStatement("INSERT INTO job_events (job_id, sequence, at, "
                     + "kind, detail) VALUES ('old-1', 1, ?, 'submitting', 'before the submit call')")) {
            job.setString(1, at);
            job.setString(2, at);
            job.executeUpdate();
            event.setString(1, at);
            event.executeUpdate();
        }
    }

    /** What a Gantry of schema version {@code last} left, empty: its steps applied and recorded. */
    private static void atVersion(Connection connection, int last) throws SQLException, IOException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE gantry_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    + "applied_at TEXT NOT NULL)");
            for (int version = 1; version <= last; version++) {
                String name = Migrations.STEPS.get(version - 1);
                try (InputStream in = Migrations.class.getResourceAsStream(name + ".sql")) {
                    for (String sql : Migrations.statements(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
                        statement.executeUpdate(sql);
                    }
                }
                statement.executeUpdate("INSERT INTO gantry_schema (version, name, applied_at) VALUES (" + version
                        + ", '" + name + "', '2026-11-01T00:00:00Z')");
            }
        }
    }
}
