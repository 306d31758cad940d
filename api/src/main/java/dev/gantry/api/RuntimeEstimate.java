package dev.gantry.api;

import java.util.Objects;

/**
 * How long the workload runs on a reference GPU model ({@code hours} on {@code gpu}, e.g. {@code A100-80GB}). The
 * advisor scales it by each candidate's tensor throughput to compare cost to completion.
 */
public record RuntimeEstimate(double hours, String gpu) {
    public RuntimeEstimate {
        Objects.requireNonNull(gpu, "gpu");
        Checks checks = new Checks();
        checks.require(hours > 0 && Double.isFinite(hours), "hours", "must be > 0, got " + Numbers.format(hours));
        checks.require(!gpu.isBlank(), "gpu", "must name the reference GPU model (for example A100-80GB), got ''");
        checks.throwIfAny();
    }
}
