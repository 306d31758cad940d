package dev.gantry.api;

import java.time.LocalDate;
import java.util.Objects;

/** Which VM catalog a plan used and the date of its prices, so that every plan says how old its figures are. */
public record CatalogInfo(String source, LocalDate date) {
    public CatalogInfo {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(date, "date");
    }
}
