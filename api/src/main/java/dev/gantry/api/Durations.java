package dev.gantry.api;

import java.time.Duration;

/** Formats durations the way specs write them: {@code 30m}, {@code 2h}, {@code 90s}. */
public final class Durations {
    private Durations() {
    }

    /**
     * Formats a duration in its largest whole unit.
     *
     * @param d the duration; fractions of a second are dropped
     * @return whole hours ({@code 2h}) when it is a multiple of an hour, else whole minutes ({@code 90m}), else
     *     seconds ({@code 45s}); zero is {@code 0s}
     */
    public static String format(Duration d) {
        long seconds = d.getSeconds();
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
