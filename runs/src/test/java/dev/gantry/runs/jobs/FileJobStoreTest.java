package dev.gantry.runs.jobs;

import dev.gantry.model.JobRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJobStoreTest {
    @TempDir
    Path state;

    @Test
    void recordsRoundTripWithEveryField() {
        FileJobStore store = new FileJobStore(state);
        JobRecord record = JobStoreContract.full("a-1", JobStoreContract.T0);
        store.save(record);
        assertEquals(Optional.of(record), store.find("a-1"));
    }

    @Test
    void listIgnoresTemporaryFiles() throws Exception {
        FileJobStore store = new FileJobStore(state);
        store.save(JobRecord.submitting("later", "w", Optional.empty(), "manual", "p", JobStoreContract.T0.plusSeconds(5)));
        Files.writeString(state.resolve("jobs").resolve(".later123.tmp"), "{half");
        assertEquals(1, store.list().size());
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
}
