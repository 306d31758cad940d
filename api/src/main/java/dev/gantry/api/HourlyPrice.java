package dev.gantry.api;

import java.util.Objects;

/**
 * A price per hour: per node and in total (per node times nodes). Currency is an ISO code, USD for Azure lists.
 *
 * @param perNode the price of one node for one hour; not negative
 * @param total the price of all nodes for one hour; not negative
 * @param currency the ISO 4217 currency code, e.g. {@code USD}
 */
public record HourlyPrice(double perNode, double total, String currency) {
    /**
     * Checks the prices and the currency.
     *
     * @param perNode the price per node and hour
     * @param total the price of all nodes per hour
     * @param currency the currency code
     * @throws NullPointerException when {@code currency} is null
     * @throws IllegalArgumentException when a price is negative
     */
    public HourlyPrice {
        Objects.requireNonNull(currency, "currency");
        if (perNode < 0 || total < 0) {
            throw new IllegalArgumentException("prices must be >= 0, got " + perNode + " and " + total);
        }
    }

    /**
     * A price in USD for a number of nodes.
     *
     * @param perNode the price of one node for one hour, in USD
     * @param nodes how many nodes
     * @return the price, its total {@code perNode * nodes}
     */
    public static HourlyPrice usd(double perNode, int nodes) {
        return new HourlyPrice(perNode, perNode * nodes, "USD");
    }
}
