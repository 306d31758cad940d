package dev.gantry.backend.batch.internal.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The entry file keeps each task's node count and every dependency; files written before they were kept still read. */
class EntryFormatTest {
    private static final TaskRef REF = new TaskRef("eastus", "gantry-job", "train-1");
    private static final JobDependency NATIVE = JobDependency.afterSuccess(new JobRef("batch", "eastus.gantry-job.a"));
    private static final JobDependency HELD = JobDependency.afterAny(new JobRef("batch", "eastus.gantry-job.b"));

    @Test
    void nodesAndEveryDependencySurviveAWriteAndARead() throws Exception {
        TaskEntry entry = TaskEntry.sending(REF, "k", "pool", Instant.parse("2026-01-02T03:04:05Z"), "python3",
                Optional.empty(), 2, List.of(NATIVE, HELD)).added();

        TaskEntry read = EntryJson.read(EntryJson.write(entry));

        assertEquals(entry, read);
        assertEquals(2, read.nodes());
        assertEquals(List.of(NATIVE, HELD), read.dependencies());
    }

    @Test
    void anEntryWrittenBeforeNodesAndDependenciesWereKeptReadsAsOneNodeWithItsHeldDependencies() throws Exception {
        String old = """
                {
                  "version" : 1,
                  "ref" : "eastus.gantry-job.train-1",
                  "idempotencyKey" : "k",
                  "poolId" : "pool",
                  "submittedAt" : "2026-01-02T03:04:05Z",
                  "phase" : "HELD",
                  "record" : { "program" : "python3", "cancelled" : false, "evictions" : 0 },
                  "held" : [ { "backend" : "batch", "id" : "eastus.gantry-job.b", "condition" : "AFTER_ANY" } ],
                  "heldTask" : "{}"
                }
                """;

        TaskEntry read = EntryJson.read(old.getBytes(StandardCharsets.UTF_8));

        assertEquals(1, read.nodes());
        assertEquals(List.of(HELD), read.dependencies());
        assertEquals(List.of(HELD), read.held());
    }
}
