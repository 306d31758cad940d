package dev.gantry.api;

import java.util.Objects;

/**
 * A candidate the advisor considered and did not choose, with why it lost.
 *
 * @param vmSize the Azure VM size name, e.g. {@code Standard_ND96isr_H100_v5}
 * @param region the Azure region, e.g. {@code eastus}
 * @param spot whether the candidate was priced as Spot capacity
 * @param pricePerHourTotal its price per hour for all nodes together, in the catalog's currency (USD)
 * @param lostBecause one sentence saying why the chosen plan beat it (cheaper, faster, a constraint it missed)
 */
public record Alternative(String vmSize, String region, boolean spot, double pricePerHourTotal, String lostBecause) {
    /**
     * Checks that the names and the reason are given.
     *
     * @param vmSize the VM size name
     * @param region the region
     * @param spot whether priced as Spot
     * @param pricePerHourTotal the price per hour for all nodes
     * @param lostBecause why it lost
     * @throws NullPointerException when {@code vmSize}, {@code region} or {@code lostBecause} is null
     */
    public Alternative {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(lostBecause, "lostBecause");
    }
}
