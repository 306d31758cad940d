package dev.gantry.api.backend;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job's state, with the exit code once it ended, a human message (why it failed, which rank, ...) and times.
 */
public record JobStatus(JobState state, OptionalInt exitCode, String message, Optional<Instant> startedAt,
                        Optional<Instant> endedAt) {
    public JobStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
    }

    public static JobStatus of(JobState state, String message) {
        return new JobStatus(state, OptionalInt.empty(), message, Optional.empty(), Optional.empty());
    }
}
