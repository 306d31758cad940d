package dev.gantry.core.runs;

import dev.gantry.model.AttemptRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpotMovesTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Plan PLANNED = Plan.builder(Workload.builder("w").phase(dev.gantry.api.Phase.TRAINING)
            .model(dev.gantry.api.ModelClass.SMALL).command("true").build(),
            new VmSize("Standard_F2s_v2", "F", 2, 4, Optional.empty(), false, Architecture.X64, Set.of("V2")))
            .region("eastus").spot(true).build();

    private static AttemptRecord attempt(int number, boolean spot, Optional<String> region, int evictions) {
        return new AttemptRecord("r", "s", number, "r.s." + number, OptionalDouble.empty(), spot, region, T0)
                .withEvictions(evictions);
    }

    @Test
    void onDemandCountsEveryEvictionAndZeroNeverMoves() {
        assertFalse(new SpotMoves(3, 0).toOnDemand(2));
        assertTrue(new SpotMoves(3, 0).toOnDemand(3));
        assertTrue(new SpotMoves(3, 0).toOnDemand(4));
        assertFalse(new SpotMoves(0, 0).toOnDemand(100), "0: never");
    }

    @Test
    void aRegionIsExhaustedOnceItsSpotAttemptsWereEvictedAsOftenAsTheLimit() {
        List<AttemptRecord> attempts = List.of(attempt(1, true, Optional.empty(), 1),
                attempt(2, true, Optional.of("eastus"), 1), attempt(3, true, Optional.of("westus2"), 1),
                attempt(4, false, Optional.of("northeurope"), 5));
        assertEquals(Map.of("eastus", 2, "westus2", 1), SpotMoves.evictionsByRegion(attempts, PLANNED),
                "an attempt from before regions were kept counts in the planned region; on-demand ones not at all");
        assertEquals(Set.of("eastus"), new SpotMoves(0, 2).exhausted(attempts, PLANNED));
        assertEquals(Set.of("eastus", "westus2"), new SpotMoves(0, 1).exhausted(attempts, PLANNED));
        assertEquals(Set.of(), new SpotMoves(3, 0).exhausted(attempts, PLANNED), "0: never");
    }
}
