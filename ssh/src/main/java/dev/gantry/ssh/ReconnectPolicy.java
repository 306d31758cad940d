package dev.gantry.ssh;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * How {@link SshPool} retries a failed connect: exponential backoff with jitter, at most {@code maxAttempts} tries,
 * and never past the target's connect timeout. Only a handshake that failed after the host accepted the TCP connection
 * is retried (sshd dropping connections beyond MaxStartups, or restarting); a refused connection, a host that does not
 * answer, a refused host key or login are never retried.
 *
 * @param maxAttempts    tries in total, first included (1 means no retry)
 * @param initialBackoff pause after the first failure
 * @param maxBackoff     cap on any pause
 * @param jitter         each pause is scaled by a random factor in [1 - jitter, 1 + jitter], so that many clients
 *                       cut off together do not reconnect in lockstep; 0..1
 */
public record ReconnectPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double jitter) {

    public static final ReconnectPolicy DEFAULT =
            new ReconnectPolicy(6, Duration.ofMillis(200), Duration.ofSeconds(5), 0.2);

    public ReconnectPolicy {
        List<Problem> problems = new ArrayList<>();
        if (maxAttempts < 1) {
            problems.add(Problem.of("maxAttempts", maxAttempts + " is not allowed; give 1 or more"));
        }
        if (initialBackoff == null || initialBackoff.isNegative()) {
            problems.add(Problem.of("initialBackoff", initialBackoff + " is not allowed; give 0 or more, "
                    + "e.g. PT0.2S"));
        }
        if (maxBackoff == null || initialBackoff != null && maxBackoff.compareTo(initialBackoff) < 0) {
            problems.add(Problem.of("maxBackoff", maxBackoff + " is not allowed; give at least initialBackoff ("
                    + initialBackoff + ")"));
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            problems.add(Problem.of("jitter", jitter + " is not allowed; give a fraction from 0 to 1, e.g. 0.2"));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** The pause after failed attempt number {@code failedAttempt} (1-based): initial * 2^(n-1), capped, jittered. */
    public Duration backoffAfter(int failedAttempt, RandomGenerator random) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("failedAttempt must be 1 or more, got " + failedAttempt);
        }
        double base = initialBackoff.toNanos() * Math.pow(2, Math.min(failedAttempt - 1, 30));
        double capped = Math.min(base, maxBackoff.toNanos());
        double factor = 1 + jitter * (2 * random.nextDouble() - 1);
        return Duration.ofNanos((long) Math.min(capped * factor, maxBackoff.toNanos()));
    }
}
