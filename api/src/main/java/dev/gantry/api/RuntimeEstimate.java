package dev.gantry.api;

import java.util.Objects;

/**
 * How long the workload runs on a reference GPU model ({@code hours} on {@code gpu}, e.g. {@code A100-80GB}). The
 * advisor scales it by each candidate's tensor throughput to compare cost to completion.
 *
 * @param hours hours to completion on one node of the reference GPU; greater than zero
 * @param gpu the reference GPU model as the catalog names it, e.g. {@code A100-80GB}
 */
public record RuntimeEstimate(double hours, String gpu) {
    /**
     * Checks the hours and the GPU name.
     *
     * @param hours hours on the reference GPU
     * @param gpu the reference GPU model
     * @throws NullPointerException when {@code gpu} is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when {@code hours} is not greater than zero or
     *     {@code gpu} is blank
     */
    public RuntimeEstimate {
        Objects.requireNonNull(gpu, "gpu");
        Checks checks = new Checks();
        checks.require(hours > 0 && Double.isFinite(hours), "hours", "must be > 0, got " + Numbers.format(hours));
        checks.require(!gpu.isBlank(), "gpu", "must name the reference GPU model (for example A100-80GB), got ''");
        checks.throwIfAny();
    }
}
