package dev.gantry.backend.batch.internal.render;

import java.time.Duration;
import org.joda.time.Period;

/** A {@link Duration} as the SDK's joda {@link Period}, in the largest whole unit, so the wire shows P7D, not PT168H. */
final class Periods {
    private Periods() {
    }

    static Period of(Duration duration) {
        long seconds = duration.getSeconds();
        if (seconds % 86_400 == 0) {
            return Period.days(Math.toIntExact(seconds / 86_400));
        }
        if (seconds % 3_600 == 0) {
            return Period.hours(Math.toIntExact(seconds / 3_600));
        }
        if (seconds % 60 == 0) {
            return Period.minutes(Math.toIntExact(seconds / 60));
        }
        return Period.seconds(Math.toIntExact(seconds));
    }
}
