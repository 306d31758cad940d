package dev.gantry.model;

import dev.gantry.api.CatalogInfo;
import java.util.List;
import java.util.Objects;

/**
 * A VM catalog as a user sees it: where it came from and how old it is, how many sizes and rows it holds, in which
 * regions, and the provenance notes of its sources. {@code text} is the one-line summary {@code gantry catalog}
 * prints.
 *
 * @param info the catalog's source and dates
 * @param priceDateNote what is known of the prices' date, in {@link CatalogAge}'s words
 * @param ageDays whole days since the catalog's date, never negative
 * @param entries rows: one per VM size and region, with its on-demand and Spot prices
 * @param sizes distinct VM sizes
 * @param regions the regions it covers
 * @param provenance notes on where its sources came from
 * @param text the one-line summary
 * @param zones what the catalog records of the zones where each size can be allocated, e.g. {@code recorded for 5 of
 *     5 rows (subscription ..., read ...)} or {@code not recorded (...)}
 */
public record CatalogSummary(CatalogInfo info, String priceDateNote, long ageDays, int entries, long sizes,
        List<String> regions, List<String> provenance, String text, String zones) {
    /**
     * Checks the texts and copies the lists.
     *
     * @param info the catalog's information
     * @param priceDateNote the price-date note
     * @param ageDays the age in days
     * @param entries the rows
     * @param sizes the sizes
     * @param regions the regions, copied
     * @param provenance the notes, copied
     * @param text the summary line
     * @param zones the zones note
     * @throws NullPointerException when a component is null
     */
    public CatalogSummary {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(priceDateNote, "priceDateNote");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(zones, "zones");
        regions = List.copyOf(regions);
        provenance = List.copyOf(provenance);
    }
}
