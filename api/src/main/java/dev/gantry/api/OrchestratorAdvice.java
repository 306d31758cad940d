package dev.gantry.api;

import java.util.Objects;

/** The orchestrator the guidance recommends for a workload, with the reason. Advice only: the configured backend runs. */
public record OrchestratorAdvice(Orchestrator recommended, String reason) {
    public OrchestratorAdvice {
        Objects.requireNonNull(recommended, "recommended");
        Objects.requireNonNull(reason, "reason");
    }
}
