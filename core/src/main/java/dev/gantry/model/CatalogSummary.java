package dev.gantry.model;

import dev.gantry.api.CatalogInfo;
import java.util.List;
import java.util.Objects;

/**
 * A VM catalog as a user sees it: where it came from and how old it is, how many sizes and rows it holds, in which
 * regions, and the provenance notes of its sources. {@code text} is the one-line summary {@code gantry catalog}
 * prints.
 */
public record CatalogSummary(CatalogInfo info, String priceDateNote, long ageDays, int entries, long sizes,
        List<String> regions, List<String> provenance, String text) {
    public CatalogSummary {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(priceDateNote, "priceDateNote");
        Objects.requireNonNull(text, "text");
        regions = List.copyOf(regions);
        provenance = List.copyOf(provenance);
    }
}
