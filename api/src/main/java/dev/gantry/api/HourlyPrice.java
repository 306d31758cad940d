package dev.gantry.api;

import java.util.Objects;

/** A price per hour: per node and in total (per node times nodes). Currency is an ISO code, USD for Azure lists. */
public record HourlyPrice(double perNode, double total, String currency) {
    public HourlyPrice {
        Objects.requireNonNull(currency, "currency");
        if (perNode < 0 || total < 0) {
            throw new IllegalArgumentException("prices must be >= 0, got " + perNode + " and " + total);
        }
    }

    public static HourlyPrice usd(double perNode, int nodes) {
        return new HourlyPrice(perNode, perNode * nodes, "USD");
    }
}
