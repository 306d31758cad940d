package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where {@code vm up} places a plan's VMs: the zone asked, else the plan's first; an RDMA plan's all in that one zone,
 * in a scale set, and in an availability set only where no zone is known or asked.
 */
class FabricPlacementTest {
    private static final VmSize ND = new VmSize("Standard_ND96isr_H100_v5", "NDH100v5", 96, 1900, Optional.empty(),
            true, Architecture.X64, Set.of("V2"));
    private static final VmSize NC = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));

    private static Workload workload(List<String> zonesInEastus) {
        Workload.Builder builder = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .command("python", "train.py");
        if (!zonesInEastus.isEmpty()) {
            builder.zones("eastus", zonesInEastus);
        }
        return builder.build();
    }

    private static Plan plan(VmSize size, List<String> asked, List<String> planZones) {
        return Plan.builder(workload(asked), size).region("eastus").nodes(2).image(ProvisionRequestTest.IMAGE)
                .zones(planZones).build();
    }

    @Test
    void theVmsGoToTheZoneAskedElseThePlansFirstElseTheRegion() {
        assertEquals(Optional.of("2"), FabricPlacement.zone(plan(NC, List.of(), List.of("2", "3")), Optional.empty()),
                "the first zone the plan allows");
        assertEquals(Optional.of("3"), FabricPlacement.zone(plan(NC, List.of(), List.of("2", "3")), Optional.of("3")));
        assertEquals(Optional.of("1"), FabricPlacement.zone(plan(NC, List.of(), List.of()), Optional.of("1")),
                "a plan that names no zone takes any");
        assertEquals(Optional.empty(), FabricPlacement.zone(plan(NC, List.of(), List.of()), Optional.empty()),
                "regional");
    }

    @Test
    void aZoneThePlanRulesOutIsRefusedWithTheZonesItAllows() {
        GantryException e = assertThrows(GantryException.class,
                () -> FabricPlacement.zone(plan(NC, List.of("2", "3"), List.of("2", "3")), Optional.of("1")));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        Problem problem = e.problems().get(0);
        assertEquals("zone", problem.path());
        assertEquals("'1' is not a zone of the plan: Standard_NC24ads_A100_v4 in eastus may be placed in zone(s) 2, 3 "
                + "(within spec.zones, where the subscription can allocate it); use one of them, or leave --zone out",
                problem.message());
    }

    @Test
    void anRdmaPlansVmsAllGoToOneZoneWhereverThePlanNamesZonesElseTheyAreRegional() {
        assertEquals(Optional.of("1"), FabricPlacement.zone(plan(ND, List.of(), List.of("1", "2")), Optional.empty()),
                "the plan's first zone, as for any VM: a scale set in zone 1");
        assertEquals(Optional.empty(), FabricPlacement.zone(plan(ND, List.of(), List.of()), Optional.empty()),
                "a plan that names no zones and a workload that asks none: regional, an availability set");
        assertEquals(Optional.of("2"), FabricPlacement.zone(plan(ND, List.of("2", "3"), List.of("2", "3")),
                Optional.empty()), "the first of the plan's zones within those the workload asks");
        assertEquals(Optional.of("3"), FabricPlacement.zone(plan(ND, List.of("3"), List.of("1", "3")),
                Optional.empty()), "only within the workload's");
        assertEquals(Optional.of("2"), FabricPlacement.zone(plan(ND, List.of("2"), List.of()), Optional.empty()),
                "a plan that names no zones: the first the workload asks");
        assertEquals(Optional.of("1"), FabricPlacement.zone(plan(ND, List.of(), List.of("1", "2")), Optional.of("1")),
                "--zone, one of the plan's");
        GantryException e = assertThrows(GantryException.class,
                () -> FabricPlacement.zone(plan(ND, List.of(), List.of("1", "2")), Optional.of("3")));
        assertEquals("zone", e.problems().get(0).path());
    }

    @Test
    void aZoneMakesTheSharedFabricAScaleSetAndNothingElseDoes() {
        assertEquals(FabricPlacement.Fabric.SCALE_SET, FabricPlacement.fabric(true, Optional.of("1")));
        assertEquals(FabricPlacement.Fabric.AVAILABILITY_SET, FabricPlacement.fabric(true, Optional.empty()));
        assertEquals(FabricPlacement.Fabric.NONE, FabricPlacement.fabric(false, Optional.of("1")));
        assertEquals(FabricPlacement.Fabric.NONE, FabricPlacement.fabric(false, Optional.empty()));
    }
}
