package dev.gantry.api;

import java.util.Objects;

/** One step of a plan's reasoning: the rule applied (e.g. {@code R2}) and what it decided. */
public record Reason(String rule, String text) {
    public Reason {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(text, "text");
    }
}
