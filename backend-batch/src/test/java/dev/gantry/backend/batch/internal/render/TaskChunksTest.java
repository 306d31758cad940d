package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TaskChunksTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/chunks");

    private static List<TaskAddParameter> tasks(int count, int argumentBytes) {
        Plan base = ExamplePlans.quickstart().plan();
        List<TaskAddParameter> tasks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Plan plan = base.withWorkload(base.workload().toBuilder().command("python3", "train.py", "--data",
                    "x".repeat(argumentBytes)).build());
            tasks.add(((TaskBody.Ready) TaskBody.render(new TaskBody.Input(plan, SubmitOptions.withKey("task-" + i),
                    "mlbatch", "gantry-d2s-v5-spot-0123456789ab", 29500, Duration.ofDays(7), List.of(),
                    Optional.empty()))).task());
        }
        return tasks;
    }

    private static String summary(List<List<TaskAddParameter>> chunks) {
        return chunks.stream().map(chunk -> chunk.size() + " tasks, " + WireJson.bytes(TaskChunks.body(chunk))
                + " bytes").collect(Collectors.joining("\n", "", "\n"));
    }

    @Test
    void smallTasksGoAHundredToARequest() {
        List<List<TaskAddParameter>> chunks = TaskChunks.chunk(tasks(250, 10));
        assertEquals(List.of(100, 100, 50), chunks.stream().map(List::size).toList());
        GOLDEN.assertMatches("small.txt", summary(chunks));
    }

    @Test
    void largeTasksGoFewerToARequestEachUnderOneMegabyteAsSerialized() {
        List<TaskAddParameter> tasks = tasks(60, 60_000);
        List<List<TaskAddParameter>> chunks = TaskChunks.chunk(tasks);
        for (List<TaskAddParameter> chunk : chunks) {
            int bytes = WireJson.bytes(TaskChunks.body(chunk));
            assertTrue(bytes <= TaskChunks.MAX_BYTES - TaskChunks.MARGIN_BYTES, bytes + " bytes");
        }
        assertEquals(tasks, chunks.stream().flatMap(List::stream).toList(), "every task once, in order");
        assertTrue(chunks.size() > 1 && chunks.get(0).size() < TaskChunks.MAX_TASKS);
        GOLDEN.assertMatches("large.txt", summary(chunks));
    }

    @Test
    void aChunkBatchFoundTooLargeSplitsInTwo() {
        List<TaskAddParameter> chunk = tasks(5, 10);
        List<List<TaskAddParameter>> halves = TaskChunks.split(chunk);
        assertEquals(List.of(chunk.subList(0, 2), chunk.subList(2, 5)), halves);
        assertThrows(IllegalArgumentException.class, () -> TaskChunks.split(chunk.subList(0, 1)));
        assertEquals(List.of(), TaskChunks.chunk(List.of()));
    }
}
