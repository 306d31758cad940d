package dev.gantry.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJobStoreTest {
    @TempDir
    Path state;

    @Test
    void recordsRoundTripWithEveryField() {
        FileJobStore store = new FileJobStore(state);
        Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
        JobRecord record = JobRecord.submitting("a-1", "a", Optional.of("a.yaml"), "manual", "1 x X in y", t0)
                .submitted(new JobRef("manual", "a-1"), t0.plusSeconds(1))
                .withStatus(new JobStatus(JobState.FAILED, OptionalInt.of(3), "exit 3", Optional.of(t0.plusSeconds(2)),
                        Optional.of(t0.plusSeconds(9))), t0.plusSeconds(10));
        store.save(record);
        assertEquals(Optional.of(record), store.find("a-1"));
    }

    @Test
    void listIsOrderedByCreationAndIgnoresTemporaryFiles() throws Exception {
        FileJobStore store = new FileJobStore(state);
        Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
        store.save(JobRecord.submitting("later", "w", Optional.empty(), "manual", "p", t0.plusSeconds(5)));
        store.save(JobRecord.submitting("earlier", "w", Optional.empty(), "manual", "p", t0));
        Files.writeString(state.resolve("jobs").resolve(".later123.tmp"), "{half");
        assertEquals(2, store.list().size());
        assertEquals("earlier", store.list().get(0).id());
    }

    @Test
    void aCorruptRecordIsReportedWithItsPath() throws Exception {
        FileJobStore store = new FileJobStore(state);
        Files.createDirectories(state.resolve("jobs"));
        Files.writeString(state.resolve("jobs").resolve("bad.json"), "{not json");
        GantryException e = assertThrows(GantryException.class, () -> store.find("bad"));
        assertEquals(ErrorCode.INTERNAL, e.code());
        assertTrue(e.getMessage().contains("bad.json"), e.getMessage());
    }

    @Test
    void idsThatAreNotFileNamesAreNeverFound() {
        assertEquals(Optional.empty(), new FileJobStore(state).find("../../etc/passwd"));
    }
}
