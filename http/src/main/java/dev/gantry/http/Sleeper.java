package dev.gantry.http;

import java.time.Duration;

/** How a retry waits; tests pass one that records the waits instead of sleeping. */
@FunctionalInterface
public interface Sleeper {
    /** The thread's own sleep: an interrupt ends it at once with {@link InterruptedException}. */
    Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
