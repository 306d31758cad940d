package dev.gantry.core.catalog;

import dev.gantry.model.CatalogAge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gantry.api.CatalogInfo;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** What every output says of a catalog's prices: the price date when known, else the copy date and how to refresh. */
class CatalogAgeTest {
    private static final LocalDate TODAY = LocalDate.of(2026, 12, 1);
    private static final CatalogInfo COPIED = CatalogInfo.copied("SkyPilot copy", LocalDate.of(2026, 11, 29));
    private static final CatalogInfo FETCHED = CatalogInfo.fetched("Azure live refresh (eastus)", TODAY);

    @Test
    void aCopiedCatalogSaysWhenItWasCopiedThatThePriceDateIsUnknownAndHowToRefresh() {
        String unknown = "; price date unknown (the source gives none); refresh with "
                + "'gantry catalog refresh --region REGION'";
        assertEquals("copied 2026-11-29" + unknown, CatalogAge.provenance(COPIED));
        assertEquals("copied 2026-11-29, 2 days ago" + unknown, CatalogAge.describe(COPIED, TODAY));
        assertEquals("catalog SkyPilot copy copied 2026-11-29, 2 days before 2026-12-01" + unknown,
                CatalogAge.reason(COPIED, TODAY));
    }

    @Test
    void aLiveRefreshSaysItsPricesAreOfTheFetchDay() {
        assertEquals("prices of 2026-12-01 (fetched that day)", CatalogAge.provenance(FETCHED));
        assertEquals("prices of 2026-12-01 (fetched that day), from today", CatalogAge.describe(FETCHED, TODAY));
        assertEquals("prices of 2026-12-01 (fetched that day), 1 day old",
                CatalogAge.describe(FETCHED, TODAY.plusDays(1)));
        assertEquals("catalog Azure live refresh (eastus) with prices of 2026-12-01, 0 days old on 2026-12-01",
                CatalogAge.reason(FETCHED, TODAY));
    }

    @Test
    void pricesAreStaleByThePriceDateOrAtLeastByTheCopyDate() {
        assertNull(CatalogAge.staleWarning(COPIED, LocalDate.of(2027, 2, 27), 90));
        assertEquals("the catalog was copied 91 days ago (2026-11-29) from a source that gives no price date, so "
                        + "its prices are at least that old; refresh with 'gantry catalog refresh --region REGION' or "
                        + "check current prices before relying on them",
                CatalogAge.staleWarning(COPIED, LocalDate.of(2027, 2, 28), 90));
        assertEquals("the catalog's prices are 91 days old (2026-12-01); refresh the catalog or check current prices "
                + "before relying on them", CatalogAge.staleWarning(FETCHED, TODAY.plusDays(91), 90));
    }
}
