package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.backend.JobState;
import java.util.Objects;

/**
 * A state of a scheduler whose every state is one code (Slurm's {@code R}, PBS's {@code Q}): an enum constant whose
 * {@link Row} says what it is for Gantry, found by its code through a {@link StateTable}.
 */
public interface TabledState extends SchedulerState {
    /** What a state is for Gantry and for the user. */
    record Row(JobState jobState, StateKind kind, String meaning) {
        public Row {
            Objects.requireNonNull(jobState, "jobState");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(meaning, "meaning");
        }
    }

    Row row();

    @Override
    default JobState jobState() {
        return row().jobState();
    }

    @Override
    default StateKind kind() {
        return row().kind();
    }

    /** What the state means for the user, for status messages. */
    default String meaning() {
        return row().meaning();
    }
}
