package dev.gantry.api;

import java.util.Objects;

/**
 * One step of a plan's reasoning: the rule applied (e.g. {@code R2}) and what it decided.
 *
 * @param rule the rule's short name, e.g. {@code R2}, as listed in the advisor's documentation
 * @param text what the rule decided for this workload, one sentence
 */
public record Reason(String rule, String text) {
    /**
     * Checks that both components are given.
     *
     * @param rule the rule
     * @param text what it decided
     * @throws NullPointerException when a component is null
     */
    public Reason {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(text, "text");
    }
}
