package dev.gantry.core.advisor;

import static dev.gantry.core.advisor.CapacityPlansTest.gpuInference;
import static dev.gantry.core.advisor.CapacityPlansTest.reasons;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.CatalogInfo;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.model.PlanOverrides;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Planning without a subscription to ask over a catalog whose refresh recorded zones: the zones asked decide as the
 * catalog records them, the plan names its zones and says where they came from, and what is read live wins.
 */
class CatalogZonesPlansTest {
    static final String ORIGIN = "subscription sub-1, read 2026-12-01T08:00:00Z (Resource SKUs: locationInfo zones"
            + " less Zone restrictions)";

    final Map<String, List<String>> zonesBySize = new HashMap<>();

    /** The embedded catalog as a refresh by sub-1 would record it: every size in zones 1-3 unless told. */
    Catalog refreshed() {
        Catalog embedded = CatalogLoader.embedded();
        List<CatalogEntry> entries = new ArrayList<>();
        for (CatalogEntry entry : embedded.entries()) {
            entries.add(new CatalogEntry(entry.size(), entry.region(), entry.onDemandPerHour(), entry.spotPerHour(),
                    entry.gpuModel(), entry.restriction(), Optional.of(zonesBySize.getOrDefault(
                            entry.size().name() + "@" + entry.region(), List.of("1", "2", "3")))));
        }
        return new Catalog(entries, new CatalogInfo("Azure live refresh (eastus westus2 westus3)",
                LocalDate.of(2026, 12, 1)), embedded.gpuModels(), embedded.retiredSeries(),
                List.of("refreshed: 2026-12-01T08:00:00Z", Catalog.ZONES_RECORDED + ORIGIN));
    }

    Plan plan(Workload workload, Optional<SubscriptionCapacity> subscription) {
        return new Advisor(refreshed(), new FakeImages(), AdvisorSettings.defaults(), GoldenPlansTest.CLOCK)
                .plan(workload, PlanOverrides.none(), subscription);
    }

    @Test
    void aSizeTheCatalogRecordsOutsideTheZonesAskedIsLostAndThePlanNamesItsZones() {
        Plan free = plan(gpuInference(), Optional.empty());
        String lost = free.vmSize().name() + "@" + free.region();
        zonesBySize.put(lost, List.of("3"));
        Workload zoned = gpuInference().toBuilder().zones(free.region(), List.of("1", "2")).build();

        Plan plan = plan(zoned, Optional.empty());
        assertNotEquals(lost, plan.vmSize().name() + "@" + plan.region());
        assertTrue(plan.pricePerHour().total() >= free.pricePerHour().total(), "the next cheapest, never cheaper");
        assertTrue(reasons(plan, "R9").get(0).contains("not allocatable in the zones asked: " + free.vmSize().name()
                + " in " + free.region() + " (allocatable in zone 3 as the catalog records; asked zones 1, 2 by the workload)"),
                reasons(plan, "R9").get(0));
        List<String> expected = plan.region().equals(free.region()) ? List.of("1", "2") : List.of("1", "2", "3");
        assertEquals(expected, plan.zones(), "the catalog's zones, within those asked where asked");
        assertTrue(reasons(plan, "Z1").get(0).startsWith("zones: " + plan.vmSize().name() + " in " + plan.region()
                + " could be allocated to the refreshing subscription in zones 1, 2, 3 (the catalog's zones, not"
                + " read live)"), reasons(plan, "Z1").toString());
        assertEquals(List.of("quota not checked: no subscription to ask (set AZURE_SUBSCRIPTION_ID and sign in to"
                + " Azure); zones from the catalog Azure live refresh (eastus westus2 westus3) of 2026-12-01 ("
                + ORIGIN + "), not read live; the plan may name a region where the subscription lacks the vCPU quota,"
                + " or a zone that has changed since"), reasons(plan, "Q1"));
    }

    @Test
    void withoutZonesAskedThePlanNamesTheZonesTheCatalogRecords() {
        Plan free = plan(gpuInference(), Optional.empty());
        zonesBySize.put(free.vmSize().name() + "@" + free.region(), List.of("2"));
        Plan plan = plan(gpuInference(), Optional.empty());
        assertEquals(free.vmSize().name() + "@" + free.region(), plan.vmSize().name() + "@" + plan.region(),
                "no zones asked: the catalog's zones remove nothing");
        assertEquals(List.of("2"), plan.zones());
        assertTrue(reasons(plan, "Z1").get(0).endsWith("in zone 2 (the catalog's zones, not read live); the plan may"
                + " use any of them"), reasons(plan, "Z1").toString());
    }

    @Test
    void aRegionalOnlySizeIsLostToAZoneAskingWorkload() {
        Plan free = plan(gpuInference(), Optional.empty());
        zonesBySize.put(free.vmSize().name() + "@" + free.region(), List.of());
        Plan plan = plan(gpuInference().toBuilder().zones(free.region(), List.of("1")).build(), Optional.empty());
        assertNotEquals(free.vmSize().name() + "@" + free.region(), plan.vmSize().name() + "@" + plan.region());
        assertTrue(reasons(plan, "R9").get(0).contains("(allocatable in no zone as the catalog records; asked zone 1 by the "
                + "workload)"),
                reasons(plan, "R9").get(0));
    }

    @Test
    void whenTheCatalogsZonesRemoveEveryCandidateTheErrorSaysSo() {
        Catalog catalog = refreshed();
        for (CatalogEntry entry : catalog.entries()) {
            zonesBySize.put(entry.size().name() + "@" + entry.region(), List.of("3"));
        }
        Workload zoned = gpuInference().toBuilder().zones("eastus", List.of("1")).zones("westus2", List.of("1", "2"))
                .zones("westus3", List.of("2")).build();
        GantryException error = assertThrows(GantryException.class, () -> plan(zoned, Optional.empty()));
        assertEquals(ErrorCode.NO_FEASIBLE_VM, error.code());
        assertTrue(error.getMessage().contains("zone 2 from the workload; the size must be allocatable to the "
                + "subscription in one of them, as the catalog's refresh recorded, not read live) removed the last"),
                error.getMessage());
    }

    @Test
    void whatIsReadLiveWinsOverTheCatalogsZones() {
        CapacityPlansTest live = new CapacityPlansTest();
        Plan free = plan(gpuInference(), Optional.empty());
        zonesBySize.put(free.vmSize().name() + "@" + free.region(), List.of("3"));
        Workload zoned = gpuInference().toBuilder().zones(free.region(), List.of("1", "2")).build();

        // The subscription offers every size in zones 1-3 today: the catalog's zone 3 is stale.
        Plan plan = plan(zoned, Optional.of(live.subscription()));
        assertEquals(free.vmSize().name() + "@" + free.region(), plan.vmSize().name() + "@" + plan.region());
        assertEquals(List.of("1", "2"), plan.zones());
        assertTrue(reasons(plan, "Q1").get(0).startsWith("quota and zones checked for subscription sub-1 in "),
                reasons(plan, "Q1").toString());
        assertTrue(reasons(plan, "Z1").get(0).contains("can be allocated to the subscription in zones 1, 2, 3"
                + " (Resource SKUs"), reasons(plan, "Z1").toString());
    }

    @Test
    void aCatalogWithoutZonesPlansAsBefore() {
        Workload zoned = gpuInference().toBuilder().zones("eastus", List.of("2")).build();
        Plan plan = CapacityPlansTest.plan(zoned, Optional.empty());
        assertTrue(reasons(plan, "Q1").get(0).startsWith("quota and zones not checked: no subscription to ask"),
                reasons(plan, "Q1").toString());
    }
}
