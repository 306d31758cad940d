package dev.gantry.core.runs;

import dev.gantry.model.AttemptRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class SpotRelocationTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Workload WORKLOAD = Workload.builder("w").phase(dev.gantry.api.Phase.TRAINING)
            .model(dev.gantry.api.ModelClass.SMALL).command("true").build();
    private static final VmSize SIZE = new VmSize("Standard_F2s_v2", "F", 2, 4, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));
    private static final Plan SPOT = Plan.builder(WORKLOAD, SIZE).region("eastus").spot(true).build();
    private static final Plan ON_DEMAND = Plan.builder(WORKLOAD, SIZE).region("eastus").spot(false).build();
    private static final Supplier<List<String>> REGIONS = () -> List.of("eastus", "westus2", "northeurope");
    private static final Supplier<List<String>> NOT_ASKED = () -> {
        throw new AssertionError("the allowed regions are asked only when the step may move");
    };

    private static AttemptRecord attempt(int number, String region, int evictions) {
        return new AttemptRecord("r", "s", number, "r.s." + number, OptionalDouble.empty(), true,
                Optional.of(region), T0).withEvictions(evictions);
    }

    @Test
    void aStepPlannedOnDemandRunsAsPlannedWhateverItsEvictions() {
        assertEquals(new SpotRelocation.AsPlanned(), SpotRelocation.next(ON_DEMAND, 9,
                List.of(attempt(1, "eastus", 9)), new SpotMoves(1, 1), true, "b", NOT_ASKED));
    }

    @Test
    void aStepEvictedAsOftenAsAllowedGoesOnDemandBeforeAnyRegionMove() {
        assertEquals(new SpotRelocation.OnDemand(), SpotRelocation.next(SPOT, 3, List.of(attempt(1, "eastus", 3)),
                new SpotMoves(3, 1), true, "b", NOT_ASKED));
    }

    @Test
    void aStepNotEvictedTooOftenStaysWhereItsLastAttemptRan() {
        assertEquals(new SpotRelocation.AsPlanned(), SpotRelocation.next(SPOT, 1, List.of(attempt(1, "eastus", 1)),
                new SpotMoves(3, 2), true, "b", NOT_ASKED));
        assertEquals(new SpotRelocation.SpotIn("westus2", Optional.empty()), SpotRelocation.next(SPOT, 1,
                List.of(attempt(1, "eastus", 0), attempt(2, "westus2", 1)), new SpotMoves(3, 2), true, "b",
                NOT_ASKED), "a step moved before stays in its new region");
    }

    @Test
    void anExhaustedRegionMovesTheStepToTheAllowedRegionsThatAreNot() {
        SpotRelocation.Placement placement = SpotRelocation.next(SPOT, 2, List.of(attempt(1, "eastus", 2)),
                new SpotMoves(0, 2), true, "b", REGIONS);
        assertEquals(new SpotRelocation.NextRegion("eastus", List.of("westus2", "northeurope"),
                "evicted 2 time(s) in eastus"), placement);
    }

    @Test
    void aBackendThatDoesNotPlaceByRegionKeepsTheStepAndSaysWhy() {
        SpotRelocation.Placement placement = SpotRelocation.next(SPOT, 2, List.of(attempt(1, "eastus", 2)),
                new SpotMoves(0, 2), false, "cyclecloud", NOT_ASKED);
        SpotRelocation.SpotIn stays = (SpotRelocation.SpotIn) placement;
        assertEquals("eastus", stays.region());
        assertTrue(stays.note().orElseThrow().contains("backend cyclecloud runs its jobs where it is configured"),
                stays.note().orElseThrow());
    }

    @Test
    void whenEveryAllowedRegionIsExhaustedTheStepStaysAndSaysWhy() {
        SpotRelocation.Placement placement = SpotRelocation.next(SPOT, 2,
                List.of(attempt(1, "eastus", 1), attempt(2, "westus2", 1)), new SpotMoves(0, 1), true, "b",
                () -> List.of("eastus", "westus2"));
        SpotRelocation.SpotIn stays = (SpotRelocation.SpotIn) placement;
        assertEquals("westus2", stays.region());
        assertEquals("evicted 1 time(s) in westus2; every allowed region [eastus, westus2] evicted it as often, so "
                + "the step stays in westus2", stays.note().orElseThrow());
    }
}
