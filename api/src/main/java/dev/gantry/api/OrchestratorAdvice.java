package dev.gantry.api;

import java.util.Objects;

/**
 * The orchestrator the guidance recommends for a workload, with the reason. Advice only: the configured backend runs.
 *
 * @param recommended the orchestrator Azure's guidance points to for this workload
 * @param reason one sentence saying why
 */
public record OrchestratorAdvice(Orchestrator recommended, String reason) {
    /**
     * Checks that both components are given.
     *
     * @param recommended the orchestrator recommended
     * @param reason why
     * @throws NullPointerException when a component is null
     */
    public OrchestratorAdvice {
        Objects.requireNonNull(recommended, "recommended");
        Objects.requireNonNull(reason, "reason");
    }
}
