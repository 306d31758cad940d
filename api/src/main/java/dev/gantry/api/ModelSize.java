package dev.gantry.api;

import java.util.Objects;

/** The model's size, from which the advisor derives GPU memory, GPUs per node and nodes. */
public record ModelSize(double parameters, Precision precision) {
    public ModelSize {
        Objects.requireNonNull(precision, "precision");
        Checks checks = new Checks();
        checks.require(parameters >= 1 && Double.isFinite(parameters), "parameters",
                "must be >= 1 (for example 7e9), got " + Numbers.format(parameters));
        checks.throwIfAny();
    }
}
