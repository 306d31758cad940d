package dev.gantry.runs.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GantryException;
import dev.gantry.runs.jobs.FileJobStore;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import dev.gantry.runs.jobs.JobStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SqlJobStoreTest extends JobStoreContract {
    @Override
    protected JobStore store(Path stateDirectory) {
        return SqlJobStore.open(stateDirectory);
    }

    @Test
    void theRecordsOfTheFileStoreAreImportedOnceAndTheirFilesKept() throws Exception {
        FileJobStore files = new FileJobStore(state);
        JobRecord first = full("old-1", T0);
        JobRecord second = JobRecord.submitting("old-2", "w", Optional.empty(), "manual", "p", T0.plusSeconds(1));
        files.save(first);
        files.save(second);
        JobStore store = SqlJobStore.open(state);
        assertEquals(List.of(first, second), store.list());
        assertFalse(Files.exists(state.resolve("jobs")), "the imported directory is set aside");
        assertTrue(Files.isRegularFile(state.resolve("jobs.imported").resolve("old-1.json")), "and kept whole");
        // A record saved since, then a later Gantry of the file store beside it again: only what is new comes in,
        // and what the database holds wins.
        JobRecord updated = second.submitted(new dev.gantry.api.backend.JobRef("manual", "old-2"), T0.plusSeconds(2));
        store.save(updated);
        new FileJobStore(state).save(second);
        new FileJobStore(state).save(JobRecord.submitting("old-3", "w", Optional.empty(), "manual", "p",
                T0.plusSeconds(3)));
        assertEquals(List.of("old-1", "old-2", "old-3"), SqlJobStore.open(state).list().stream()
                .map(JobRecord::id).toList());
        assertEquals(Optional.of(updated), SqlJobStore.open(state).find("old-2"));
        assertTrue(Files.isDirectory(state.resolve("jobs.imported.2")));
    }

    @Test
    void aDatabaseOfANewerSchemaIsRefusedNotMisread() {
        try (StateDatabase database = StateDatabase.sqlite(state.resolve("state.db"))) {
            database.transaction("pretend to be newer", connection -> {
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO gantry_schema (version, name, applied_at) VALUES (?, 'V99__future', 'now')")) {
                    insert.setInt(1, Migrations.STEPS.size() + 1);
                    return insert.executeUpdate();
                }
            });
        }
        GantryException e = assertThrows(GantryException.class, () -> SqlJobStore.open(state));
        assertTrue(e.getMessage().contains("newer than this Gantry's"), e.getMessage());
    }

    @Test
    void eachStepIsAppliedOnceAndRecorded() {
        try (StateDatabase database = StateDatabase.sqlite(state.resolve("state.db"))) {
            database.close();
        }
        try (StateDatabase again = StateDatabase.sqlite(state.resolve("state.db"))) {
            List<String> steps = again.transaction("read the schema", connection -> {
                List<String> names = new java.util.ArrayList<>();
                try (var rows = connection.createStatement().executeQuery(
                        "SELECT name FROM gantry_schema ORDER BY version")) {
                    while (rows.next()) {
                        names.add(rows.getString(1));
                    }
                }
                return names;
            });
            assertEquals(Migrations.STEPS, steps);
        }
    }

    @Test
    void aStepIsSplitIntoItsStatementsWithoutItsComments() {
        assertEquals(List.of("CREATE TABLE a (x TEXT)", "CREATE INDEX b ON a (x)"),
                Migrations.statements("-- a comment\nCREATE TABLE a (x TEXT);\n-- another\nCREATE INDEX b ON a (x);\n"));
        assertThrows(IllegalStateException.class, () -> Migrations.statements("CREATE TABLE a (x TEXT)\n"));
    }

    @Test
    void aNewDatabaseAndItsLogAreReadableByTheirOwnerOnly() throws Exception {
        SqlJobStore store = SqlJobStore.open(state);
        store.save(full("a-1", T0));
        for (String name : List.of("state.db", "state.db-wal", "state.db-shm")) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(state.resolve(name))), name);
        }
        store.close();
    }
}
