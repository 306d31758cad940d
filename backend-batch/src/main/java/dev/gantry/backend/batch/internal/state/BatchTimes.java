package dev.gantry.backend.batch.internal.state;

import java.time.Instant;
import java.util.Optional;
import org.joda.time.DateTime;

/** The SDK's joda times as {@link Instant}s. */
final class BatchTimes {
    private BatchTimes() {
    }

    static Optional<Instant> of(DateTime time) {
        return Optional.ofNullable(time).map(t -> Instant.ofEpochMilli(t.getMillis()));
    }
}
