package dev.gantry.backend.batch.internal.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskEntriesTest {
    private static final Instant T0 = Instant.parse("2026-06-01T10:00:00Z");
    private static final TaskRef REF = new TaskRef("mlbatch", "gantry-d2s-v5-0123456789ab", "train-1");

    @TempDir
    Path state;

    private static TaskEntry everyField() {
        Eviction eviction = new Eviction(T0.plusSeconds(60), "Batch node tvm-1 preempted (Spot)");
        TaskRecord record = TaskRecord.submitted("python3").withEviction(eviction)
                .withLastRunning(Optional.of(new TaskRecord.Sighting(T0.plusSeconds(90), "tvm-2"))).withCancel();
        JobStatus ended = new JobStatus(JobState.CANCELLED, OptionalInt.of(137), "cancelled: dependency a failed",
                Optional.of(T0.plusSeconds(5)), Optional.of(T0.plusSeconds(120)), 1, Optional.of(eviction));
        return TaskEntry.held(REF, "run.train-1", "gantry-d2s-v5-0123456789ab", T0, "python3",
                Optional.of("gantry-secrets/mlbatch/job/train-1"), List.of(JobDependency.afterAny(new JobRef("batch",
                        "mlbatch.other.a")), JobDependency.afterSuccess(new JobRef("batch", "mlbatch.other.b"))),
                "{\"id\":\"train-1\",\"commandLine\":\"/bin/sh -c 'x'\"}").withRecord(record).withTerminal(ended);
    }

    @Test
    void anEntryIsReadBackWholeByAnotherProcess() {
        TaskEntry entry = everyField();
        TaskEntries.in(state).save(entry);
        TaskEntries other = TaskEntries.in(state);
        assertEquals(Optional.of(entry), other.byKey("run.train-1"));
        assertEquals(Optional.of(entry), other.byRef(REF));
        assertEquals(Optional.of(entry), other.byId("mlbatch.gantry-d2s-v5-0123456789ab.train-1"));
        assertEquals(Optional.empty(), other.byId("not-a-ref"));
        assertEquals(List.of(entry), other.all());
    }

    @Test
    void theDirectoryIsReadOnceAndEachSaveReplacesTheFileWhole() throws Exception {
        TaskEntries entries = TaskEntries.in(state);
        TaskEntry sending = TaskEntry.sending(REF, "k", "pool", T0, "true", Optional.empty());
        entries.save(sending);
        entries.save(sending.added());
        Files.writeString(entries.directory().resolve("written-later.json"), "{}");
        assertEquals(List.of(sending.added()), entries.all(), "read once: a file written since is not read");
        try (Stream<Path> files = Files.list(entries.directory())) {
            assertEquals(List.of("train-1.json", "written-later.json"), files.map(f -> f.getFileName().toString())
                    .sorted().toList(), "one file per task, no temporary file left");
        }
    }

    @Test
    void anUnreadableEntryNamesItsFileAndTheFix() throws Exception {
        Files.createDirectories(state.resolve("tasks"));
        Files.writeString(state.resolve("tasks").resolve("broken.json"), "{\"version\":1,\"ref\":\"x\"}");
        GantryException e = assertThrows(GantryException.class, () -> TaskEntries.in(state).all());
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("broken.json") && e.getMessage().contains("move it away"),
                e.getMessage());
    }

    @Test
    void aHeldEntryKeepsItsBodyAndNoOtherDoes() {
        assertThrows(IllegalArgumentException.class, () -> new TaskEntry(REF, "k", "p", T0, TaskEntry.Phase.ADDED,
                TaskRecord.submitted("x"), Optional.empty(), List.of(), Optional.of("{}"), Optional.empty(),
                Optional.empty()));
        assertEquals(Optional.empty(), everyField().added().heldTask());
        assertEquals(List.of(), everyField().added().held());
    }
}
