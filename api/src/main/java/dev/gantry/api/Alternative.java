package dev.gantry.api;

import java.util.Objects;

/** A candidate the advisor considered and did not choose, with why it lost. */
public record Alternative(String vmSize, String region, boolean spot, double pricePerHourTotal, String lostBecause) {
    public Alternative {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(lostBecause, "lostBecause");
    }
}
