package dev.gantry.core.advisor;

import static dev.gantry.core.advisor.CapacityPlansTest.CATALOG;
import static dev.gantry.core.advisor.CapacityPlansTest.gpuInference;
import static dev.gantry.core.advisor.CapacityPlansTest.reasons;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.model.PlanOverrides;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The configuration's {@code defaults.zones}: asked in every region the workload asks no zones in, the workload's
 * own zones winning for the regions it names; the plan's workload carries what was asked, and its reasons say who
 * asked.
 */
class ConfiguredZonesTest {
    final CapacityPlansTest subscription = new CapacityPlansTest();

    static Advisor advisor(Map<String, List<String>> defaultZones) {
        return new Advisor(CATALOG, new FakeImages(), new AdvisorSettings(List.of(), Optional.empty(),
                Optional.empty(), defaultZones), GoldenPlansTest.CLOCK);
    }

    Plan plan(Map<String, List<String>> defaultZones, Workload workload, Optional<SubscriptionCapacity> capacity) {
        return advisor(defaultZones).plan(workload, PlanOverrides.none(), capacity);
    }

    @Test
    void theConfigurationsZonesRestrictThePlanAsAWorkloadsWould() {
        Plan free = plan(Map.of(), gpuInference(), Optional.of(subscription.subscription()));
        String where = free.vmSize().name() + "@" + free.region();
        subscription.zonesBySize.put(where, List.of("3"));

        Plan plan = plan(Map.of(free.region(), List.of("1", "2")), gpuInference(),
                Optional.of(subscription.subscription()));

        assertNotEquals(where, plan.vmSize().name() + "@" + plan.region(), "not allocatable in zone 1 or 2");
        assertEquals(plan(Map.of(), gpuInference().toBuilder().zones(free.region(), List.of("1", "2")).build(),
                Optional.of(subscription.subscription())).vmSize(), plan.vmSize(), "the same choice as asked in spec");
        assertTrue(reasons(plan, "R9").get(0).contains("not allocatable in the zones asked: " + free.vmSize().name()
                + " in " + free.region() + " (allocatable in zone 3; asked zones 1, 2 by the configuration's "
                + "defaults.zones)"), reasons(plan, "R9").get(0));
        assertEquals(Map.of(free.region(), List.of("1", "2")), plan.workload().zones(),
                "the planned workload carries the zones asked, for vm up to place the VMs by");
        assertEquals(Map.of(), gpuInference().zones(), "the workload given is unchanged");
    }

    @Test
    void theWorkloadWinsForTheRegionsItNamesAndTheConfigurationKeepsTheOthers() {
        Workload zoned = gpuInference().toBuilder().zones("eastus", List.of("2")).build();
        Plan plan = plan(Map.of("eastus", List.of("3"), "westus2", List.of("1"), "centralus", List.of("1")), zoned,
                Optional.empty());

        assertEquals(Map.of("eastus", List.of("2"), "westus2", List.of("1")), plan.workload().zones(),
                "eastus as the workload asks; westus2 from the configuration; centralus is not a region it may use");
        assertEquals(List.of("eastus", "westus2"), List.copyOf(plan.workload().zones().keySet()),
                "the workload's regions first");
        List<String> expected = switch (plan.region()) {
            case "eastus" -> List.of("2");
            case "westus2" -> List.of("1");
            default -> List.of();
        };
        assertEquals(expected, plan.zones());
    }

    @Test
    void z1SaysWhoAskedTheZones() {
        Plan free = plan(Map.of(), gpuInference(), Optional.empty());
        Plan fromConfig = plan(Map.of(free.region(), List.of("2")), gpuInference(), Optional.empty());
        assertEquals(List.of("2"), fromConfig.zones());
        assertEquals(List.of("zones: zone 2 as the configuration's defaults.zones asks in " + free.region()
                + " (not checked: no subscription to ask)"), reasons(fromConfig, "Z1"));

        Plan checked = plan(Map.of(free.region(), List.of("2")), gpuInference(),
                Optional.of(subscription.subscription()));
        assertEquals(free.region(), checked.region());
        assertTrue(reasons(checked, "Z1").get(0).endsWith("; the configuration's defaults.zones asks zone 2, so the "
                + "plan uses zone 2"), reasons(checked, "Z1").toString());

        Workload zoned = gpuInference().toBuilder().zones(free.region(), List.of("1")).build();
        Plan workloadWins = plan(Map.of(free.region(), List.of("2")), zoned, Optional.empty());
        assertEquals(List.of("1"), workloadWins.zones());
        assertEquals(List.of("zones: zone 1 as the workload asks in " + free.region()
                + " (not checked: no subscription to ask)"), reasons(workloadWins, "Z1"));
    }

    @Test
    void whenTheConfigurationsZonesRemoveEveryCandidateTheErrorSaysWhoAskedThem() {
        for (String region : List.of("eastus", "westus2", "westus3")) {
            CATALOG.entries().forEach(e -> subscription.zonesBySize.put(e.size().name() + "@" + region,
                    List.of("1")));
        }
        Map<String, List<String>> zones = Map.of("eastus", List.of("3"), "westus2", List.of("3"), "westus3",
                List.of("2", "3"));
        GantryException error = assertThrows(GantryException.class,
                () -> plan(zones, gpuInference(), Optional.of(subscription.subscription())));
        assertEquals(ErrorCode.NO_FEASIBLE_VM, error.code());
        assertTrue(error.getMessage().contains("from the configuration's defaults.zones"), error.getMessage());
    }

    @Test
    void theConfigurationsZonesAreCheckedWithTheWorkloadsRule() {
        GantryException e = assertThrows(GantryException.class, () -> new AdvisorSettings(List.of(),
                Optional.empty(), Optional.empty(), Map.of("eastus", List.of("4"))));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("defaults.zones.eastus[0]: must be an availability zone 1, 2, 3, got '4'", e.getMessage());
        assertEquals(Map.of(), new AdvisorSettings(List.of(), Optional.empty(), Optional.empty()).defaultZones(),
                "the three-part form asks no zones");
    }
}
