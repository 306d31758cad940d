package dev.gantry.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileJobStoreTest extends JobStoreContract {
    @Override
    protected JobStore store(Path stateDirectory) {
        return new FileJobStore(stateDirectory);
    }

    @Test
    void listIgnoresTemporaryFiles() throws Exception {
        FileJobStore store = new FileJobStore(state);
        store.save(JobRecord.submitting("later", "w", Optional.empty(), "manual", "p", T0.plusSeconds(5)));
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
