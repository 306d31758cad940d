package dev.gantry.api;

/**
 * The most the workload may cost per hour, all nodes together, in USD.
 *
 * @param maxPerHour the ceiling in USD per hour for all nodes together; greater than zero and finite
 */
public record Budget(double maxPerHour) {
    /**
     * Checks the ceiling.
     *
     * @param maxPerHour the ceiling in USD per hour, all nodes together
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when it is not greater than zero or not finite
     */
    public Budget {
        Checks checks = new Checks();
        checks.require(maxPerHour > 0 && Double.isFinite(maxPerHour), "maxPerHour",
                "must be > 0 (USD per hour, all nodes), got " + Numbers.format(maxPerHour));
        checks.throwIfAny();
    }
}
