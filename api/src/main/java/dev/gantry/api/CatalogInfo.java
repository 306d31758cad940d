package dev.gantry.api;

import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * Which VM catalog a plan used and what is known of the age of its prices, so that every plan says how old its figures
 * are, or that nobody knows.
 *
 * @param source where the catalog came from
 * @param date the day the catalog's data was copied from its source, or fetched live
 * @param priceDate the day its prices are of: the fetch day for a live refresh; empty when the source gives no price
 *     date (a copied file), so that the prices may be older than {@code date}
 */
public record CatalogInfo(String source, LocalDate date, Optional<LocalDate> priceDate) {
    public CatalogInfo {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(priceDate, "priceDate");
    }

    /**
     * A catalog whose prices are of {@code date}, the day they were fetched: the meaning of this form before the
     * price date was its own component.
     */
    public CatalogInfo(String source, LocalDate date) {
        this(source, date, Optional.of(date));
    }

    /** A catalog fetched live on {@code day}: its prices are that day's. */
    public static CatalogInfo fetched(String source, LocalDate day) {
        return new CatalogInfo(source, day, Optional.of(day));
    }

    /** A catalog copied on {@code day} from a source that gives no price date. */
    public static CatalogInfo copied(String source, LocalDate day) {
        return new CatalogInfo(source, day, Optional.empty());
    }
}
