package dev.gantry.core.config;

import dev.gantry.api.Durations;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How workflow runs are driven: the {@code runs:} and {@code spot:} sections of the configuration.
 *
 * @param pollInterval how long a run's driver waits between two looks at its jobs ({@code runs.pollInterval},
 *     default {@code 5s}, from {@code 1s} to {@code 1h})
 * @param onDemandAfterEvictions after this many evictions of one workflow step on Spot capacity, its next attempt is
 *     placed on on-demand capacity; 0 never moves it ({@code spot.onDemandAfterEvictions}, default 3, from 0 to 100).
 *     Counted over all regions; a step moved to on-demand stays there, whatever {@code nextRegionAfterEvictions}
 *     says
 * @param nextRegionAfterEvictions after this many evictions of one workflow step in one region on Spot capacity, its
 *     next attempt is planned in the next allowed region (the workload's {@code regions}, else the configuration's
 *     {@code defaultRegions}, else every region of the catalog) where it has not been evicted that often; 0 never
 *     moves it ({@code spot.nextRegionAfterEvictions}, default 0, from 0 to 100). Opt-in because a checkpoint kept in
 *     a storage account of one region would then be read from another. It moves a step only on a backend that
 *     places each job in its plan's region: the manual backend's hosts and a CycleCloud cluster stay where they are
 * @param maxJobs the most jobs one workflow may expand to, its matrices included ({@code runs.maxJobs}, default
 *     10,000, 1 or more); a workflow above it is refused when its spec is read, naming the step and its job count
 */
public record RunSettings(Duration pollInterval, int onDemandAfterEvictions, int nextRegionAfterEvictions,
                          int maxJobs) {
    public static final String POLL_INTERVAL = "runs.pollInterval";
    public static final String MAX_JOBS = "runs.maxJobs";
    /**
     * The most jobs one workflow may expand to: a matrix of 100,000 by mistake is refused when the spec is read,
     * before anything is planned or recorded, rather than flooding the cluster.
     */
    public static final int DEFAULT_MAX_JOBS = 10_000;
    public static final String ON_DEMAND_AFTER_EVICTIONS = "spot.onDemandAfterEvictions";
    public static final String NEXT_REGION_AFTER_EVICTIONS = "spot.nextRegionAfterEvictions";
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
    /** Gantry's durations are whole seconds: the shortest interval it can write. */
    public static final Duration MIN_POLL_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);
    public static final int DEFAULT_ON_DEMAND_AFTER_EVICTIONS = 3;
    public static final int MAX_ON_DEMAND_AFTER_EVICTIONS = 100;
    /** 0, never: moving a step to another region is opted into, since its checkpoint may live in one region. */
    public static final int DEFAULT_NEXT_REGION_AFTER_EVICTIONS = 0;
    /** The same bound as {@link #MAX_ON_DEMAND_AFTER_EVICTIONS}: both count one step's evictions. */
    public static final int MAX_NEXT_REGION_AFTER_EVICTIONS = MAX_ON_DEMAND_AFTER_EVICTIONS;
    public static final RunSettings DEFAULT = new RunSettings(DEFAULT_POLL_INTERVAL,
            DEFAULT_ON_DEMAND_AFTER_EVICTIONS, DEFAULT_NEXT_REGION_AFTER_EVICTIONS, DEFAULT_MAX_JOBS);

    /** @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming each setting that is out of range */
    public RunSettings {
        Objects.requireNonNull(pollInterval, "pollInterval");
        List<Problem> problems = new ArrayList<>();
        if (pollInterval.compareTo(MIN_POLL_INTERVAL) < 0 || pollInterval.compareTo(MAX_POLL_INTERVAL) > 0) {
            problems.add(Problem.of(POLL_INTERVAL, pollIntervalRange(show(pollInterval))));
        }
        if (onDemandAfterEvictions < 0 || onDemandAfterEvictions > MAX_ON_DEMAND_AFTER_EVICTIONS) {
            problems.add(Problem.of(ON_DEMAND_AFTER_EVICTIONS,
                    onDemandAfterEvictionsRange(Integer.toString(onDemandAfterEvictions))));
        }
        if (nextRegionAfterEvictions < 0 || nextRegionAfterEvictions > MAX_NEXT_REGION_AFTER_EVICTIONS) {
            problems.add(Problem.of(NEXT_REGION_AFTER_EVICTIONS,
                    nextRegionAfterEvictionsRange(Integer.toString(nextRegionAfterEvictions))));
        }
        if (maxJobs <= 0) {
            problems.add(Problem.of(MAX_JOBS, maxJobsRange(Integer.toString(maxJobs))));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** Settings with the default {@link #maxJobs}. */
    public RunSettings(Duration pollInterval, int onDemandAfterEvictions, int nextRegionAfterEvictions) {
        this(pollInterval, onDemandAfterEvictions, nextRegionAfterEvictions, DEFAULT_MAX_JOBS);
    }

    public RunSettings withPollInterval(Duration interval) {
        return new RunSettings(interval, onDemandAfterEvictions, nextRegionAfterEvictions, maxJobs);
    }

    public RunSettings withOnDemandAfterEvictions(int evictions) {
        return new RunSettings(pollInterval, evictions, nextRegionAfterEvictions, maxJobs);
    }

    public RunSettings withNextRegionAfterEvictions(int evictions) {
        return new RunSettings(pollInterval, onDemandAfterEvictions, evictions, maxJobs);
    }

    public RunSettings withMaxJobs(int jobs) {
        return new RunSettings(pollInterval, onDemandAfterEvictions, nextRegionAfterEvictions, jobs);
    }

    /** The message for a job limit that is not a positive whole number; {@code given} as the user wrote it. */
    static String maxJobsRange(String given) {
        return "must be a whole number of 1 or more, got '" + given + "'; it is the most jobs one workflow may "
                + "expand to, its matrices included (default " + DEFAULT_MAX_JOBS + "); set it above the largest "
                + "workflow you mean to run";
    }

    /** The message for a poll interval that parses but is out of range; {@code given} as the user wrote it. */
    static String pollIntervalRange(String given) {
        return "must be from " + Durations.format(MIN_POLL_INTERVAL) + " to " + Durations.format(MAX_POLL_INTERVAL)
                + ", got '" + given + "'; a run's driver looks at its jobs once per interval (default "
                + Durations.format(DEFAULT_POLL_INTERVAL) + ")";
    }

    /** The message for an eviction count out of range; {@code given} as the user wrote it. */
    static String onDemandAfterEvictionsRange(String given) {
        return "must be a whole number from 0 to " + MAX_ON_DEMAND_AFTER_EVICTIONS + ", got '" + given
                + "'; it counts a step's Spot evictions before its next attempt goes on on-demand capacity (0: never, "
                + "default " + DEFAULT_ON_DEMAND_AFTER_EVICTIONS + ")";
    }

    /** The message for a per-region eviction count out of range; {@code given} as the user wrote it. */
    static String nextRegionAfterEvictionsRange(String given) {
        return "must be a whole number from 0 to " + MAX_NEXT_REGION_AFTER_EVICTIONS + ", got '" + given
                + "'; it counts a step's Spot evictions in one region before its next attempt goes to the next "
                + "allowed region (0: never, default " + DEFAULT_NEXT_REGION_AFTER_EVICTIONS + ")";
    }

    private static String show(Duration d) {
        return d.getNano() == 0 && !d.isNegative() ? Durations.format(d) : d.toMillis() + "ms";
    }

    @Override
    public String toString() {
        return "RunSettings[pollInterval=" + show(pollInterval) + ", onDemandAfterEvictions=" + onDemandAfterEvictions
                + ", nextRegionAfterEvictions=" + nextRegionAfterEvictions + ", maxJobs=" + maxJobs + "]";
    }
}
