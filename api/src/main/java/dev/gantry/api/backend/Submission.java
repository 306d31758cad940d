package dev.gantry.api.backend;

import dev.gantry.api.Plan;
import java.util.Objects;

/**
 * One job of a {@link Backend#submitAll} fan-out: the plan to run and how to submit it (SPI v2).
 *
 * @param plan the plan
 * @param options its idempotency key, attempt and dependencies
 */
public record Submission(Plan plan, SubmitOptions options) {
    /**
     * Checks that both components are given.
     *
     * @param plan the plan
     * @param options how to submit it
     * @throws NullPointerException when a component is null
     */
    public Submission {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(options, "options");
    }
}
