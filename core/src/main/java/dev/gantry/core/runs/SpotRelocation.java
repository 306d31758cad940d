package dev.gantry.core.runs;

import dev.gantry.model.AttemptRecord;
import dev.gantry.api.Plan;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where the next attempt of a workflow step runs after Spot evictions: the policy of {@link SpotMoves}, decided from
 * the step's plan and attempts alone. The run engine plans what it says (the advisor may find nothing that fits, and
 * the step then stays where it was planned).
 */
public final class SpotRelocation {
    private SpotRelocation() {
    }

    /** Where the next attempt goes. */
    public sealed interface Placement {
    }

    /** As the step was planned: it was planned on on-demand capacity, or on Spot and never evicted from there. */
    public record AsPlanned() implements Placement {
    }

    /** On on-demand capacity wherever it fits: the step was evicted as often as {@code spot.onDemandAfterEvictions}. */
    public record OnDemand() implements Placement {
    }

    /**
     * On Spot in {@code region}, the region its last attempt ran in.
     *
     * @param note why it stays there although that region evicted it as often as allowed; empty when it did not
     */
    public record SpotIn(String region, Optional<String> note) implements Placement {
    }

    /**
     * On Spot in the best of {@code regions}, none of which evicted it as often as allowed; when none of them fits,
     * it stays in {@code from}.
     *
     * @param evicted what {@code from} did, for the run's history
     */
    public record NextRegion(String from, List<String> regions, String evicted) implements Placement {
        public NextRegion {
            regions = List.copyOf(regions);
        }
    }

    /**
     * The next attempt's placement.
     *
     * @param planned the step's plan as made when the run started
     * @param stepEvictions the step's evictions over all its attempts
     * @param attempts the step's attempts so far, oldest first
     * @param placesByRegion whether the backend runs each job in its plan's region
     * @param backend the backend's name, for the note when it does not
     * @param allowedRegions the regions the step's workload may run in, asked only when it may move
     */
    public static Placement next(Plan planned, int stepEvictions, List<AttemptRecord> attempts, SpotMoves moves,
            boolean placesByRegion, String backend, Supplier<List<String>> allowedRegions) {
        if (!planned.spot()) {
            return new AsPlanned();
        }
        if (moves.toOnDemand(stepEvictions)) {
            return new OnDemand();
        }
        String region = attempts.isEmpty() ? planned.region()
                : SpotMoves.regionOf(attempts.get(attempts.size() - 1), planned);
        Set<String> exhausted = moves.exhausted(attempts, planned);
        if (!exhausted.contains(region)) {
            return region.equals(planned.region()) ? new AsPlanned() : new SpotIn(region, Optional.empty());
        }
        String evicted = "evicted " + SpotMoves.evictionsByRegion(attempts, planned).get(region) + " time(s) in "
                + region;
        if (!placesByRegion) {
            return new SpotIn(region, Optional.of(evicted + "; backend " + backend + " runs its jobs where it is "
                    + "configured, not in their plan's region, so the step stays there"));
        }
        List<String> remaining = allowedRegions.get().stream().filter(r -> !exhausted.contains(r)).toList();
        if (remaining.isEmpty()) {
            return new SpotIn(region, Optional.of(evicted + "; every allowed region " + exhausted + " evicted it as "
                    + "often, so the step stays in " + region));
        }
        return new NextRegion(region, remaining, evicted);
    }
}
