package dev.gantry.api;

import java.time.Duration;

/** Formats durations the way specs write them: {@code 30m}, {@code 2h}, {@code 90s}. */
public final class Durations {
    private Durations() {
    }

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
