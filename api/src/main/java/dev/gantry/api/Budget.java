package dev.gantry.api;

/** The most the workload may cost per hour, all nodes together, in USD. */
public record Budget(double maxPerHour) {
    public Budget {
        Checks checks = new Checks();
        checks.require(maxPerHour > 0 && Double.isFinite(maxPerHour), "maxPerHour",
                "must be > 0 (USD per hour, all nodes), got " + Numbers.format(maxPerHour));
        checks.throwIfAny();
    }
}
