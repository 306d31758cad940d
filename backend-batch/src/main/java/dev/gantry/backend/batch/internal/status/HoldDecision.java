package dev.gantry.backend.batch.internal.status;

import dev.gantry.backend.batch.internal.render.TaskRef;
import java.util.Objects;

/** What to do with a task Gantry holds, once every dependency it waits for has ended. */
public sealed interface HoldDecision {
    TaskRef ref();

    /** Every dependency ended as it must: add the task now, with the same id (render it without the held ones). */
    record AddNow(TaskRef ref) implements HoldDecision {
        public AddNow {
            Objects.requireNonNull(ref, "ref");
        }
    }

    /** A dependency ended otherwise: the task never runs; record it CANCELLED with this message. */
    record Cancel(TaskRef ref, String message) implements HoldDecision {
        public Cancel {
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(message, "message");
        }
    }
}
