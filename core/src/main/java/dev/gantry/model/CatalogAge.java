package dev.gantry.model;

import dev.gantry.api.CatalogInfo;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/**
 * What is known of a catalog's prices, in the words every output uses ({@code gantry catalog show}, a plan's catalog
 * row, reason C1, the stale-price warning, the JSON forms): the price date when there is one (a live refresh), else
 * the day the file was copied, that its source gives no price date, and how to refresh.
 */
public final class CatalogAge {
    /** The command that fetches current prices. */
    public static final String REFRESH = "gantry catalog refresh --region REGION";

    private CatalogAge() {
    }

    /**
     * The day-independent statement, e.g. {@code prices of 2026-12-01 (fetched that day)} or {@code copied
     * 2026-11-29; price date unknown (the source gives none); refresh with 'gantry catalog refresh --region REGION'}.
     *
     * @param info the catalog's source and dates
     * @return the statement, one line
     */
    public static String provenance(CatalogInfo info) {
        return info.priceDate().map(day -> "prices of " + day + (day.equals(info.date()) ? " (fetched that day)"
                : " (fetched " + info.date() + ")")).orElseGet(() -> copied(info));
    }

    /**
     * The statement with the age on {@code today}, e.g. {@code prices of 2026-12-01 (fetched that day), 3 days old}
     * or {@code copied 2026-11-29, 2 days ago; price date unknown (the source gives none); refresh with ...}.
     *
     * @param info the catalog's source and dates
     * @param today the day to count the age to; a date after it counts as today
     * @return the statement, one line
     */
    public static String describe(CatalogInfo info, LocalDate today) {
        long days = Math.max(0, ChronoUnit.DAYS.between(info.date(), today));
        if (info.priceDate().isPresent()) {
            long priceDays = Math.max(0, ChronoUnit.DAYS.between(info.priceDate().get(), today));
            return provenance(info) + ", " + (priceDays == 0 ? "from today" : days(priceDays) + " old");
        }
        return "copied " + info.date() + ", " + (days == 0 ? "today" : days(days) + " ago") + unknownPriceDate();
    }

    /**
     * A plan's reason C1 on {@code today}: {@code catalog SOURCE with prices of 2026-11-01, 30 days old on 2026-12-01}
     * when the price date is known, else {@code catalog SOURCE copied 2026-11-29, 2 days before 2026-12-01; price
     * date unknown (the source gives none); refresh with ...}.
     *
     * @param info the catalog's source and dates
     * @param today the day the plan is made
     * @return the reason's text, one line
     */
    public static String reason(CatalogInfo info, LocalDate today) {
        if (info.priceDate().isPresent()) {
            LocalDate prices = info.priceDate().get();
            return "catalog " + info.source() + " with prices of " + prices + ", "
                    + days(ChronoUnit.DAYS.between(prices, today)) + " old on " + today;
        }
        return "catalog " + info.source() + " copied " + info.date() + ", "
                + days(ChronoUnit.DAYS.between(info.date(), today)) + " before " + today + unknownPriceDate();
    }

    /**
     * The warning for prices older than {@code staleAfterDays} on {@code today}, or null when they are not: by the
     * price date when known, else by the copy date, which the prices are at least as old as.
     *
     * @param info the catalog's source and dates
     * @param today the day to judge on
     * @param staleAfterDays the most days old prices may be without a warning
     * @return the warning, one line with how to refresh; null when the prices are not that old
     */
    public static String staleWarning(CatalogInfo info, LocalDate today, long staleAfterDays) {
        LocalDate since = info.priceDate().orElse(info.date());
        long days = ChronoUnit.DAYS.between(since, today);
        if (days <= staleAfterDays) {
            return null;
        }
        if (info.priceDate().isPresent()) {
            return "the catalog's prices are " + days + " days old (" + since + "); refresh the catalog or check "
                    + "current prices before relying on them";
        }
        return "the catalog was copied " + days + " days ago (" + since + ") from a source that gives no price date, "
                + "so its prices are at least that old; refresh with '" + REFRESH + "' or check current prices "
                + "before relying on them";
    }

    /**
     * A count of days in words.
     *
     * @param count the days
     * @return {@code 1 day}, {@code 3 days}, {@code 0 days}
     */
    public static String days(long count) {
        return count + (count == 1 ? " day" : " days");
    }

    private static String copied(CatalogInfo info) {
        return "copied " + info.date() + unknownPriceDate();
    }

    private static String unknownPriceDate() {
        return "; price date unknown (the source gives none); refresh with '" + REFRESH + "'";
    }
}
