package dev.gantry.backend.aks.internal.pools;

import java.util.Objects;

/**
 * The node pool a job is placed in: its name goes in the pods' {@code kubernetes.azure.com/agentpool} selector.
 *
 * @param name the pool's name
 * @param beingCreated whether Azure was still creating it when the job was submitted, so that the job's ranks wait
 *     for its first nodes (the status table says so instead of the scheduler's message)
 */
public record TargetPool(String name, boolean beingCreated) {
    public TargetPool {
        Objects.requireNonNull(name, "name");
    }
}
