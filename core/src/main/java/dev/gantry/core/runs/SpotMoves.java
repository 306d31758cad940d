package dev.gantry.core.runs;

import dev.gantry.model.AttemptRecord;
import dev.gantry.api.Plan;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a workflow step planned on Spot capacity goes after evictions: on on-demand capacity once it was evicted
 * {@code onDemandAfter} times in all, or on Spot in the next allowed region once it was evicted
 * {@code nextRegionAfter} times in the region it runs in (Azure reclaims Spot capacity region by region, so another
 * region's may hold where this one's did not). 0 turns either move off.
 *
 * @param onDemandAfter {@code spot.onDemandAfterEvictions}
 * @param nextRegionAfter {@code spot.nextRegionAfterEvictions}
 */
public record SpotMoves(int onDemandAfter, int nextRegionAfter) {
    /** Whether a step evicted this often in all runs its next attempt on on-demand capacity. */
    public boolean toOnDemand(int stepEvictions) {
        return onDemandAfter > 0 && stepEvictions >= onDemandAfter;
    }

    /** The region an attempt was planned in: as recorded, else (a record from before regions were kept) the step's. */
    public static String regionOf(AttemptRecord attempt, Plan planned) {
        return attempt.region().orElse(planned.region());
    }

    /** The step's Spot evictions by region, over all its attempts, in region order. */
    public static Map<String, Integer> evictionsByRegion(List<AttemptRecord> attempts, Plan planned) {
        Map<String, Integer> counts = new TreeMap<>();
        for (AttemptRecord attempt : attempts) {
            if (attempt.spot() && attempt.evictions() > 0) {
                counts.merge(regionOf(attempt, planned), attempt.evictions(), Integer::sum);
            }
        }
        return counts;
    }

    /** The regions the step was evicted from as often as the limit allows: its next attempt goes to none of them. */
    public Set<String> exhausted(List<AttemptRecord> attempts, Plan planned) {
        Set<String> exhausted = new TreeSet<>();
        if (nextRegionAfter == 0) {
            return exhausted;
        }
        evictionsByRegion(attempts, planned).forEach((region, count) -> {
            if (count >= nextRegionAfter) {
                exhausted.add(region);
            }
        });
        return exhausted;
    }
}
