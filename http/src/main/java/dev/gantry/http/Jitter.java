package dev.gantry.http;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How a computed backoff is spread out, so that many clients throttled at the same moment do not all come back at
 * the same moment. It applies to the client's own backoff only: a wait the server asked for ({@code Retry-After}) is
 * kept as asked.
 */
@FunctionalInterface
public interface Jitter {
    /** Waits exactly the backoff: for a test that compares waits, or a client alone on its server. */
    Jitter NONE = backoff -> backoff;
    /** Waits between half the backoff and all of it, uniformly ("equal jitter"). */
    Jitter DEFAULT = shorterBy(0.5, () -> ThreadLocalRandom.current().nextDouble());

    /** The wait for a backoff: never longer than the backoff, never negative. */
    Duration apply(Duration backoff);

    /**
     * Waits shortened by up to {@code fraction} of the backoff: {@code backoff * (1 - fraction * random)}.
     *
     * @param fraction how much shorter a wait may be, from 0 (no jitter) to 1 (any wait down to none)
     * @param random draws from 0 (inclusive) to 1 (exclusive), e.g. {@code ThreadLocalRandom}'s
     */
    static Jitter shorterBy(double fraction, DoubleSupplier random) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("jitter fraction must be from 0 to 1, got " + fraction);
        }
        Objects.requireNonNull(random, "random");
        return backoff -> {
            double draw = Math.min(Math.max(random.getAsDouble(), 0), 1);
            return Duration.ofNanos(Math.round(backoff.toNanos() * (1 - fraction * draw)));
        };
    }
}
