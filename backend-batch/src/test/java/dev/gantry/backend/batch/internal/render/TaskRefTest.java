package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskRefTest {
    @Test
    void theIdNamesAccountJobAndTaskAndParsesBack() {
        TaskRef ref = new TaskRef("mlbatch", "gantry-d2s-v5-0123456789ab", "run-1_step-a");
        assertEquals("mlbatch.gantry-d2s-v5-0123456789ab.run-1_step-a", ref.id());
        assertEquals(Optional.of(ref), TaskRef.parse(ref.id()));
    }

    @Test
    void otherFormsAreNotTaskRefs() {
        for (String id : List.of("", "a.b", "a.b.c.d", "a..c", ".b.c", "a.b.", "a.b c.d", "manual-job-1")) {
            assertEquals(Optional.empty(), TaskRef.parse(id), id);
        }
        assertThrows(IllegalArgumentException.class, () -> new TaskRef("a.b", "j", "t"));
        assertThrows(IllegalArgumentException.class, () -> new TaskRef("a", "j", "x".repeat(65)));
    }
}
