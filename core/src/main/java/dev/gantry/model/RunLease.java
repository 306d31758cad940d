package dev.gantry.model;

import java.time.Instant;
import java.util.Objects;

/**
 * Which process drives a run (its holder: host and process id) and until when its lease holds unless renewed. A run
 * has at most one driver; another process that finds a live lease watches the run instead of acting on it.
 */
public record RunLease(String runId, String holder, Instant expiresAt) {
    public RunLease {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
