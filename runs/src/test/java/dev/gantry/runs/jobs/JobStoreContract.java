package dev.gantry.runs.jobs;

import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every {@link JobStore} does, whatever keeps its records. */
public abstract class JobStoreContract {
    protected static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @TempDir
    protected Path state;

    /** A store over {@code stateDirectory}, as Gantry opens it. */
    protected abstract JobStore store(Path stateDirectory);

    /** A record with every optional field set, and times of every precision. */
    protected static JobRecord full(String id, Instant created) {
        return JobRecord.submitting(id, "a", Optional.of("a.yaml"), "manual", "1 x X in y", created)
                .submitted(new JobRef("manual", id), created.plusMillis(1_500))
                .withStatus(new JobStatus(JobState.FAILED, OptionalInt.of(3), "exit 3",
                        Optional.of(created.plusNanos(2_000_000_123L)), Optional.of(created.plusSeconds(9))),
                        created.plusSeconds(10));
    }

    @Test
    void recordsRoundTripWithEveryField() {
        JobStore store = store(state);
        JobRecord record = full("a-1", T0);
        store.save(record);
        assertEquals(Optional.of(record), store.find("a-1"));
    }

    @Test
    void labelsRoundTripInTheirOrder() {
        JobStore store = store(state);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("team", "search");
        labels.put("cost.center", "quote\" and ü");
        labels.put("a", "");
        JobRecord record = full("l-1", T0).withLabels(labels);
        store.save(record);
        JobRecord read = store.find("l-1").orElseThrow();
        assertEquals(record, read);
        assertEquals(List.copyOf(labels.keySet()), List.copyOf(read.labels().keySet()));
    }

    @Test
    void aSaveReplacesTheRecordOfItsId() {
        JobStore store = store(state);
        JobRecord submitting = JobRecord.submitting("b-1", "b", Optional.empty(), "manual", "p", T0);
        store.save(submitting);
        JobRecord submitted = submitting.submitted(new JobRef("manual", "b-1"), T0.plusSeconds(1));
        store.save(submitted);
        assertEquals(Optional.of(submitted), store.find("b-1"));
        assertEquals(List.of(submitted), store.list());
    }

    @Test
    void listIsOrderedByCreationThenId() {
        JobStore store = store(state);
        store.save(JobRecord.submitting("later", "w", Optional.empty(), "manual", "p", T0.plusSeconds(5)));
        store.save(JobRecord.submitting("earlier", "w", Optional.empty(), "manual", "p", T0));
        // Half a second after: a shorter text than T0's plus 5 s, later in time.
        store.save(JobRecord.submitting("half", "w", Optional.empty(), "manual", "p", T0.plusMillis(500)));
        store.save(JobRecord.submitting("a-same", "w", Optional.empty(), "manual", "p", T0));
        assertEquals(List.of("a-same", "earlier", "half", "later"), store.list().stream().map(JobRecord::id)
                .toList());
    }

    @Test
    void aBatchIsSavedWithItsEventsAndFoundTogether() {
        JobStore store = store(state);
        JobRecord a = JobRecord.submitting("a-1", "a", Optional.empty(), "manual", "p", T0);
        JobRecord b = JobRecord.submitting("b-1", "b", Optional.empty(), "manual", "p", T0);
        store.saveAll(List.of(a, b), List.of(JobEvent.of("a-1", T0, JobEvent.SUBMITTING, "to a"),
                JobEvent.of("b-1", T0, JobEvent.SUBMITTING, "to b")));
        assertEquals(java.util.Map.of("a-1", a, "b-1", b), store.find(List.of("a-1", "none", "b-1")),
                "the records that exist, by id");
        assertEquals(List.of("to b"), store.history("b-1").stream().map(JobEvent::detail).toList());
    }

    @Test
    void aRecordSurvivesTheStoreBeingOpenedAgain() {
        JobRecord record = full("c-1", T0);
        store(state).save(record);
        assertEquals(Optional.of(record), store(state).find("c-1"));
    }

    @Test
    void eventsAreNumberedPerJobInTheOrderStoredAndSavedWithTheirRecord() {
        JobStore store = store(state);
        JobRecord a = JobRecord.submitting("a", "w", Optional.empty(), "manual", "p", T0);
        store.save(a, JobEvent.of("a", T0, JobEvent.SUBMITTING, "to backend 'manual'"));
        store.append(List.of(JobEvent.of("b", T0, "log", "first of b"), JobEvent.of("a", T0.plusNanos(1), "log",
                "line one\nline two"), JobEvent.of("b", T0, "log", "second of b")));
        assertEquals(Optional.of(a), store.find("a"));
        assertEquals(List.of(new JobEvent("a", 1, T0, "submitting", "to backend 'manual'"),
                new JobEvent("a", 2, T0.plusNanos(1), "log", "line one line two")), store(state).history("a"));
        assertEquals(List.of(1L, 2L), store.history("b").stream().map(JobEvent::sequence).toList());
        assertEquals(List.of(), store.history("none"));
    }

    @Test
    void idsThatAreNotFileNamesAreNeverFound() {
        assertEquals(Optional.empty(), store(state).find("../../etc/passwd"));
    }
}
