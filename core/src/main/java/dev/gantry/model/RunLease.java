package dev.gantry.model;

import java.time.Instant;
import java.util.Objects;

/**
 * Which process drives a run (its holder: host and process id) and until when its lease holds unless renewed. A run
 * has at most one driver; another process that finds a live lease watches the run instead of acting on it.
 *
 * @param runId the run
 * @param holder the driving process, as {@code PID@HOST/NONCE} (the nonce tells two engines of one process apart)
 * @param expiresAt when the lease lapses unless renewed
 */
public record RunLease(String runId, String holder, Instant expiresAt) {
    /**
     * Checks that every component is given.
     *
     * @param runId the run
     * @param holder the holder
     * @param expiresAt the expiry
     * @throws NullPointerException when a component is null
     */
    public RunLease {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
