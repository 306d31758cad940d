package dev.gantry.api.backend;

import java.time.Instant;
import java.util.Objects;

/**
 * One eviction of a job's capacity: when the backend saw it and why (a Spot reclaim, a failed node, a preempted pod),
 * as the orchestrator put it.
 *
 * @param at when the eviction happened, or when the backend first saw it if the orchestrator gives no time
 * @param reason the orchestrator's own words, e.g. {@code Azure Scheduled Event Preempt} or {@code NODE_FAIL}
 */
public record Eviction(Instant at, String reason) {
    /**
     * Checks that both components are given.
     *
     * @param at when it happened or was first seen
     * @param reason the orchestrator's words
     * @throws NullPointerException when a component is null
     */
    public Eviction {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(reason, "reason");
    }
}
