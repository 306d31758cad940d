package dev.gantry.api;

import java.util.Objects;

/**
 * The model's size, from which the advisor derives GPU memory, GPUs per node and nodes.
 *
 * @param parameters the number of parameters, e.g. {@code 7e9} for a 7B model; at least 1
 * @param precision the numeric precision the weights are trained or served in
 */
public record ModelSize(double parameters, Precision precision) {
    /**
     * Checks the parameter count.
     *
     * @param parameters the number of parameters
     * @param precision the precision
     * @throws NullPointerException when {@code precision} is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when {@code parameters} is below 1 or not finite
     */
    public ModelSize {
        Objects.requireNonNull(precision, "precision");
        Checks checks = new Checks();
        checks.require(parameters >= 1 && Double.isFinite(parameters), "parameters",
                "must be >= 1 (for example 7e9), got " + Numbers.format(parameters));
        checks.throwIfAny();
    }
}
