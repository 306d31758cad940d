package dev.gantry.core.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spec.zones}: the availability zones allowed per region, read and checked with the field, value and fix. */
class SpecZonesTest {
    final SpecReader reader = new SpecReader();

    static String spec(String zones) {
        return "apiVersion: gantry.dev/v1\nkind: Workload\nmetadata: {name: x}\nspec:\n  phase: training\n"
                + "  model: generative\n  command: [python, train.py]\n  regions: [eastus, westus2]\n" + zones;
    }

    @Test
    void zonesAreReadPerRegionAsWrittenNumbersIncluded() {
        Workload workload = reader.read("x.yaml", spec("  zones:\n    eastus: [1, \"2\"]\n    westus2: [3]\n"));
        assertEquals(Map.of("eastus", List.of("1", "2"), "westus2", List.of("3")), workload.zones());
        assertEquals(List.of("eastus", "westus2"), List.copyOf(workload.zones().keySet()), "in the order written");
        assertEquals(Map.of(), reader.read("x.yaml", spec("")).zones(), "none asked: any zone");
    }

    @Test
    void everyProblemNamesTheFieldTheValueAndTheFix() {
        GantryException e = assertThrows(GantryException.class, () -> reader.read("x.yaml",
                spec("  zones:\n    eastus: [1, 4, 1]\n    centralus: [2]\n    westus2: []\n")));
        assertEquals(ErrorCode.SPEC_INVALID, e.code());
        assertEquals("x.yaml:10:17: zones.eastus[1]: must be an availability zone 1, 2, 3, got '4'\n"
                + "x.yaml:10:20: zones.eastus[2]: zone '1' is listed twice\n"
                + "x.yaml:11:5: zones.centralus: region 'centralus' is not in regions [eastus, westus2]; add it to"
                + " regions or remove its zones\n"
                + "x.yaml:12:5: zones.westus2: must list the zones allowed in westus2, one or more of [1, 2, 3]; remove"
                + " the entry to allow any zone", e.getMessage());
    }

    @Test
    void zonesMustBeAMappingOfLists() {
        GantryException e = assertThrows(GantryException.class,
                () -> reader.read("x.yaml", spec("  zones: [1, 2]\n")));
        assertEquals("x.yaml:9:3: zones: must be a mapping of region names to lists of zones, e.g. {eastus: [1, 2]},"
                + " got a list", e.getMessage());
        GantryException scalar = assertThrows(GantryException.class,
                () -> reader.read("x.yaml", spec("  zones:\n    eastus: 1\n")));
        assertEquals("x.yaml:10:5: zones.eastus: must be a list of zones 1, 2 or 3, got 1", scalar.getMessage());
    }

    @Test
    void aWorkloadBuiltInCodeIsCheckedTheSameWay() {
        GantryException e = assertThrows(GantryException.class, () -> Workload.builder("x")
                .phase(dev.gantry.api.Phase.INFERENCE).model(dev.gantry.api.ModelClass.SMALL).command("run")
                .zones("East US", List.of("1")).build());
        assertEquals("zones.East US: must be keyed by an Azure region name such as eastus or westus2, got 'East US'",
                e.problems().get(0).toString());
    }
}
