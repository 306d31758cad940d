package dev.gantry.api;

import java.util.OptionalDouble;

/**
 * What the work may cost, in USD: a ceiling per hour for all nodes together, which the advisor applies to every
 * candidate, and a ceiling for the whole run, which the advisor applies to every candidate's estimated cost to
 * completion (when the workload has an estimate) and the run engine to what the run has spent (it warns at 80% and
 * stops the run at 100%). At least one is given.
 *
 * @param maxPerHour the most per hour, all nodes together; greater than zero and finite, or empty for no ceiling
 * @param maxTotal the most in all, over every attempt; greater than zero and finite, or empty for no ceiling
 */
public record Budget(OptionalDouble maxPerHour, OptionalDouble maxTotal) {
    /**
     * Checks both ceilings, reporting every problem at once.
     *
     * @param maxPerHour the ceiling in USD per hour, all nodes together, or empty
     * @param maxTotal the ceiling in USD for the whole run, or empty
     * @throws NullPointerException when a component is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when a ceiling given is not greater than zero or
     *     not finite, or when neither is given
     */
    public Budget {
        java.util.Objects.requireNonNull(maxPerHour, "maxPerHour");
        java.util.Objects.requireNonNull(maxTotal, "maxTotal");
        Checks checks = new Checks();
        maxPerHour.ifPresent(max -> checks.require(max > 0 && Double.isFinite(max), "maxPerHour",
                "must be > 0 (USD per hour, all nodes), got " + Numbers.format(max)));
        maxTotal.ifPresent(max -> checks.require(max > 0 && Double.isFinite(max), "maxTotal",
                "must be > 0 (USD for the whole run, every attempt and node), got " + Numbers.format(max)
                        + "; for example maxTotal: 50"));
        checks.require(maxPerHour.isPresent() || maxTotal.isPresent(), "maxTotal",
                "a budget needs maxPerHour (USD per hour, all nodes), maxTotal (USD for the whole run) or both, "
                        + "got neither; for example budget: {maxTotal: 50}");
        checks.throwIfAny();
    }

    /**
     * A ceiling per hour only, as a budget was before {@code maxTotal}.
     *
     * @param maxPerHour the ceiling in USD per hour, all nodes together
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when it is not greater than zero or not finite
     */
    public Budget(double maxPerHour) {
        this(OptionalDouble.of(maxPerHour), OptionalDouble.empty());
    }

    /**
     * A ceiling for the whole run only.
     *
     * @param maxTotal the ceiling in USD, over every attempt and node
     * @return the budget
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when it is not greater than zero or not finite
     */
    public static Budget total(double maxTotal) {
        return new Budget(OptionalDouble.empty(), OptionalDouble.of(maxTotal));
    }

    /**
     * This budget with a ceiling for the whole run.
     *
     * @param value the ceiling in USD, over every attempt and node
     * @return a copy with that {@code maxTotal}
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when it is not greater than zero or not finite
     */
    public Budget withMaxTotal(double value) {
        return new Budget(maxPerHour, OptionalDouble.of(value));
    }
}
