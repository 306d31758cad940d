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
    /**
     * Checks that every component is given.
     *
     * @param source where the catalog came from
     * @param date the day its data was copied or fetched
     * @param priceDate the day its prices are of, or empty when unknown
     * @throws NullPointerException when a component is null
     */
    public CatalogInfo {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(priceDate, "priceDate");
    }

    /**
     * A catalog whose prices are of {@code date}, the day they were fetched: the meaning of this form before the
     * price date was its own component.
     *
     * @param source where the catalog came from
     * @param date the day it was fetched, which is also its prices' day
     */
    public CatalogInfo(String source, LocalDate date) {
        this(source, date, Optional.of(date));
    }

    /**
     * A catalog fetched live on {@code day}: its prices are that day's.
     *
     * @param source where it was fetched from, e.g. the Azure Retail Prices API
     * @param day the day of the fetch
     * @return the catalog's information, with {@code day} as its price date
     */
    public static CatalogInfo fetched(String source, LocalDate day) {
        return new CatalogInfo(source, day, Optional.of(day));
    }

    /**
     * A catalog copied on {@code day} from a source that gives no price date.
     *
     * @param source where it was copied from
     * @param day the day of the copy
     * @return the catalog's information, with no price date (its prices may be older than {@code day})
     */
    public static CatalogInfo copied(String source, LocalDate day) {
        return new CatalogInfo(source, day, Optional.empty());
    }
}
