package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.TaskAddCollectionParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import java.util.ArrayList;
import java.util.List;

/**
 * Tasks cut into add-task-collection requests: at most {@value #MAX_TASKS} tasks each (Batch's limit), and a body under
 * {@value #MAX_BYTES} bytes as the SDK's serializer writes it (Batch answers {@code 413 RequestBodyTooLarge} over
 * 1 MB), less a margin for what the client adds. A chunk Batch still finds too large is {@link #split} in two; no
 * size is remembered between calls.
 */
public final class TaskChunks {
    public static final int MAX_TASKS = 100;
    /** Batch's limit on a request body, "1 MB", read as the stricter decimal megabyte. */
    public static final int MAX_BYTES = 1_000_000;
    /** Room left for differences between this measure and the bytes sent (headers are not counted by Batch). */
    static final int MARGIN_BYTES = 32_000;
    /** {@code {"value":[]}}: the envelope around the tasks. */
    private static final int ENVELOPE_BYTES = WireJson.bytes(new TaskAddCollectionParameter().withValue(List.of()));

    private TaskChunks() {
    }

    /**
     * The chunks, in order. A task too large for a request of its own still gets one: Batch's 413 then names it.
     */
    public static List<List<TaskAddParameter>> chunk(List<TaskAddParameter> tasks) {
        int budget = MAX_BYTES - MARGIN_BYTES;
        List<List<TaskAddParameter>> chunks = new ArrayList<>();
        List<TaskAddParameter> current = new ArrayList<>();
        int bytes = ENVELOPE_BYTES;
        for (TaskAddParameter task : tasks) {
            int size = WireJson.bytes(task) + 1; // and its comma
            if (!current.isEmpty() && (current.size() == MAX_TASKS || bytes + size > budget)) {
                chunks.add(List.copyOf(current));
                current.clear();
                bytes = ENVELOPE_BYTES;
            }
            current.add(task);
            bytes += size;
        }
        if (!current.isEmpty()) {
            chunks.add(List.copyOf(current));
        }
        return chunks;
    }

    /** A chunk Batch answered 413 cut into two halves; a single task cannot be cut. */
    public static List<List<TaskAddParameter>> split(List<TaskAddParameter> chunk) {
        if (chunk.size() < 2) {
            throw new IllegalArgumentException("a chunk of " + chunk.size() + " task cannot be split: the task alone is "
                    + "over Batch's request limit");
        }
        int half = chunk.size() / 2;
        return List.of(List.copyOf(chunk.subList(0, half)), List.copyOf(chunk.subList(half, chunk.size())));
    }

    /** The request body of a chunk. */
    public static TaskAddCollectionParameter body(List<TaskAddParameter> chunk) {
        return new TaskAddCollectionParameter().withValue(chunk);
    }
}
