package dev.gantry.core.advisor;

import static dev.gantry.core.advisor.AdvisorRulesTest.resources;
import static dev.gantry.core.advisor.AdvisorRulesTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.model.PlanOverrides;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Quota and zones inside the search, over the embedded catalog and a subscription offered every size in zones 1-3:
 * what a region lost to quota says, what the Spot pool decides, how the zones asked decide, and what a plan without a
 * subscription says.
 */
class CapacityPlansTest {
    static final Catalog CATALOG = CatalogLoader.embedded();
    static final Advisor ADVISOR = new Advisor(CATALOG, new FakeImages(), AdvisorSettings.defaults(),
            GoldenPlansTest.CLOCK);

    final Map<String, List<String>> zonesBySize = new HashMap<>();
    final Map<String, Map<String, QuotaUsage>> usages = new HashMap<>();
    final Map<String, Integer> usageReads = new TreeMap<>();

    /** Every catalog size in every region, in zones 1-3 unless told, family {@code standard<FAMILY>Family}. */
    SubscriptionCapacity subscription() {
        return new SubscriptionCapacity("sub-1", regions -> {
            List<SizeOffer> offers = new ArrayList<>();
            for (CatalogEntry entry : CATALOG.entries()) {
                if (regions.contains(entry.region())) {
                    offers.add(new SizeOffer(entry.size().name(), family(entry.size().name()), entry.region(),
                            OptionalInt.of(entry.size().vcpus()), OptionalInt.empty(), OptionalDouble.empty(),
                            OptionalInt.empty(), Set.of(), Optional.empty(), Optional.empty(), Optional.empty(),
                            zonesBySize.getOrDefault(entry.size().name() + "@" + entry.region(),
                                    List.of("1", "2", "3"))));
                }
            }
            return offers;
        }, region -> {
            usageReads.merge(region, 1, Integer::sum);
            return usages.getOrDefault(region, Map.of());
        }, GoldenPlansTest.CLOCK);
    }

    static String family(String size) {
        return "standard" + size.replaceAll("^Standard_([A-Z]+).*", "$1") + "Family";
    }

    void quota(String region, String name, long inUse, long limit) {
        usages.computeIfAbsent(region, r -> new HashMap<>())
                .put(name.toLowerCase(Locale.ROOT), new QuotaUsage(name, name + " vCPUs", inUse, limit));
    }

    static Workload gpuInference() {
        return workload(Phase.INFERENCE, ModelClass.GENERATIVE).resources(resources().gpus(1).nodes(2).build())
                .regions(List.of("eastus", "westus2", "westus3")).build();
    }

    static Plan plan(Workload workload, Optional<SubscriptionCapacity> subscription) {
        return ADVISOR.plan(workload, PlanOverrides.none(), subscription);
    }

    static List<String> reasons(Plan plan, String rule) {
        return plan.reasons().stream().filter(r -> r.rule().equals(rule)).map(Reason::text).toList();
    }

    @Test
    void withoutASubscriptionThePlanIsAsBeforeAndSaysNothingWasChecked() {
        Plan plan = plan(gpuInference(), Optional.empty());
        assertEquals(ADVISOR.plan(gpuInference(), PlanOverrides.none()), plan);
        assertEquals(List.of("quota and zones not checked: no subscription to ask (set AZURE_SUBSCRIPTION_ID and sign"
                + " in to Azure); the plan may name a region where the subscription lacks the vCPU quota or the size"),
                reasons(plan, "Q1"));
        assertEquals(List.of(), plan.zones(), "no zones asked, none known: a regional placement");
    }

    @Test
    void aRegionWithoutFamilyQuotaIsLostWithItsFiguresAndTheNextCheapestWins() {
        Plan free = plan(gpuInference(), Optional.of(subscription()));
        String region = free.region();
        String size = free.vmSize().name();
        int perVm = free.vmSize().vcpus();
        quota(region, family(size), 4, 2 * perVm + 3);
        Plan limited = plan(gpuInference(), Optional.of(subscription()));
        assertNotEquals(size + "@" + region, limited.vmSize().name() + "@" + limited.region());
        assertTrue(limited.pricePerHour().total() >= free.pricePerHour().total(), "the next cheapest, never cheaper");
        List<String> lost = reasons(limited, "Q2");
        assertEquals(1, lost.size(), lost.toString());
        String quota = family(size);
        assertTrue(lost.get(0).startsWith("region " + region + " lost to quota: 2 × " + size + " (on-demand, "),
                lost.get(0));
        assertTrue(lost.get(0).endsWith(quota + " (" + quota + " vCPUs): limit " + (2 * perVm + 3) + " vCPUs, 4 in"
                + " use, needs " + 2 * perVm + " (2 × " + size + " at " + perVm + " vCPUs); request a quota increase of "
                + quota + " in " + region + " to at least " + (2 * perVm + 4) + " vCPUs (+1)"), lost.get(0));
        assertTrue(reasons(limited, "Q1").get(0).startsWith("quota and zones checked for subscription sub-1 in "),
                reasons(limited, "Q1").toString());
    }

    @Test
    void theRegionalTotalCountsToo() {
        Plan free = plan(gpuInference(), Optional.of(subscription()));
        quota(free.region(), "cores", 0, free.vmSize().vcpus());
        Plan limited = plan(gpuInference(), Optional.of(subscription()));
        assertNotEquals(free.region() + free.vmSize().name(), limited.region() + limited.vmSize().name());
        assertTrue(reasons(limited, "Q2").get(0).contains("cores (cores vCPUs): limit " + free.vmSize().vcpus()),
                reasons(limited, "Q2").toString());
    }

    @Test
    void spotDrawsOnTheSpotPoolAloneAndFallsBackToOnDemandWhenItIsFull() {
        Workload spot = gpuInference().toBuilder().spot(dev.gantry.api.SpotPolicy.PREFERRED).build();
        Plan free = plan(spot, Optional.of(subscription()));
        assertTrue(free.spot());
        // Family and regional quotas full: Spot VMs do not draw on them.
        for (String region : List.of("eastus", "westus2", "westus3")) {
            quota(region, "cores", 0, 0);
            quota(region, family(free.vmSize().name()), 0, 0);
        }
        assertEquals(free.vmSize().name() + "@" + free.region(),
                plan(spot, Optional.of(subscription())).vmSize().name() + "@"
                        + plan(spot, Optional.of(subscription())).region());
        usages.clear();
        for (String region : List.of("eastus", "westus2", "westus3")) {
            quota(region, "lowPriorityCores", 0, 0);
        }
        Plan onDemand = plan(spot, Optional.of(subscription()));
        assertFalse(onDemand.spot(), "no Spot vCPUs anywhere: on-demand capacity");
        assertTrue(reasons(onDemand, "Q2").stream().anyMatch(text -> text.contains("(spot, ")
                && text.contains("lowPriorityCores")), reasons(onDemand, "Q2").toString());
    }

    @Test
    void aPlanReadsEachRegionOnceAndPlansOfOneInvocationShareUsagesForAMinute() {
        SubscriptionCapacity shared = subscription();
        plan(gpuInference(), Optional.of(shared));
        plan(gpuInference(), Optional.of(shared));
        assertEquals(Map.of("eastus", 1, "westus2", 1, "westus3", 1), usageReads,
                "three regions allowed, each read once for both plans");
    }

    @Test
    void zonesAskedDecideAndThePlanNamesItsZones() {
        Plan free = plan(gpuInference(), Optional.of(subscription()));
        zonesBySize.put(free.vmSize().name() + "@" + free.region(), List.of("3"));
        Workload zoned = gpuInference().toBuilder().zones(free.region(), List.of("1", "2")).build();
        Plan plan = plan(zoned, Optional.of(subscription()));
        assertNotEquals(free.vmSize().name() + "@" + free.region(), plan.vmSize().name() + "@" + plan.region());
        assertTrue(reasons(plan, "R9").get(0).contains("not allocatable in the zones asked: " + free.vmSize().name()
                + " in " + free.region() + " (allocatable in zone 3; asked zones 1, 2 by the workload)"),
                reasons(plan, "R9").get(0));
        List<String> expected = plan.region().equals(free.region()) ? List.of("1", "2") : List.of("1", "2", "3");
        assertEquals(expected, plan.zones());
        assertTrue(reasons(plan, "Z1").get(0).startsWith("zones: " + plan.vmSize().name() + " in " + plan.region()
                + " can be allocated to the subscription in zones 1, 2, 3"), reasons(plan, "Z1").toString());
    }

    @Test
    void zonesAskedWithoutASubscriptionAreTakenAsAskedAndSaidUnchecked() {
        Plan free = plan(gpuInference(), Optional.empty());
        Workload zoned = gpuInference().toBuilder().zones(free.region(), List.of("2")).build();
        Plan plan = plan(zoned, Optional.empty());
        assertEquals(List.of("2"), plan.zones());
        assertEquals(List.of("zones: zone 2 as the workload asks in " + free.region() + " (not checked: no subscription"
                + " to ask)"), reasons(plan, "Z1"));
    }

    @Test
    void whenQuotaRemovesEveryCandidateTheErrorSaysWhatToRequest() {
        for (String region : List.of("eastus", "westus2", "westus3")) {
            quota(region, "cores", 0, 1);
        }
        GantryException error = assertThrows(GantryException.class,
                () -> plan(gpuInference(), Optional.of(subscription())));
        assertEquals(ErrorCode.NO_FEASIBLE_VM, error.code());
        assertTrue(error.getMessage().contains("vCPU quota (the VM family's and the region's total vCPUs, less what is"
                + " in use, for all nodes) removed the last"), error.getMessage());
        assertTrue(error.getMessage().contains("lost to quota"), error.getMessage());
        assertTrue(error.getMessage().contains("request a quota increase of cores in eastus to at least"),
                error.getMessage());
    }
}
