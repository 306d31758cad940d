package dev.gantry.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One job submitted for a step: the link from a run to the job records ({@code jobs}) that did its work. Written
 * before the job is submitted (the intent: its job id is derived from the run, step and number, so a process that
 * dies before the backend answers submits the same job again with the same idempotency key), and updated as the job
 * is evicted and ends.
 *
 * @param runId the run
 * @param step the step's name
 * @param number which attempt of the step, from 1
 * @param jobId the job's id in the job store, also the idempotency key the backend was given
 * @param pricePerHour what its placement cost an hour when chosen, if known: cost reports use it, not today's catalog
 * @param spot whether it ran on spot capacity
 * @param region the region it was planned in when that is not the step's planned one (moved after evictions);
 *     empty: the step's planned region, as for every attempt recorded before regions were kept
 * @param createdAt when it was submitted
 * @param evictions how often its capacity was evicted while the orchestrator kept the job (a requeue), or 1 for a
 *     job that ended PREEMPTED
 * @param outcome how it ended, once it did
 */
public record AttemptRecord(
        String runId,
        String step,
        int number,
        String jobId,
        OptionalDouble pricePerHour,
        boolean spot,
        Optional<String> region,
        Instant createdAt,
        int evictions,
        Optional<AttemptOutcome> outcome) {

    /**
     * Checks the number and evictions.
     *
     * @param runId the run
     * @param step the step
     * @param number the attempt, from 1
     * @param jobId the job's id
     * @param pricePerHour the price an hour, or empty
     * @param spot whether on Spot
     * @param region the region moved to, or empty
     * @param createdAt when submitted
     * @param evictions the evictions, 0 or more
     * @param outcome how it ended, or empty
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code number} is below 1 or {@code evictions} negative
     */
    public AttemptRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(pricePerHour, "pricePerHour");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(outcome, "outcome");
        if (number < 1) {
            throw new IllegalArgumentException("an attempt's number is 1 or more: " + number);
        }
        if (evictions < 0) {
            throw new IllegalArgumentException("an attempt's evictions are 0 or more: " + evictions);
        }
    }

    /**
     * A new attempt in the step's planned region, not evicted, not ended.
     *
     * @param runId the run it belongs to
     * @param step the step it runs
     * @param number its number among the step's attempts
     * @param jobId its job's id
     * @param pricePerHour its hourly price when chosen, if known
     * @param spot whether it runs on Spot
     * @param createdAt when it was submitted
     */
    public AttemptRecord(String runId, String step, int number, String jobId, OptionalDouble pricePerHour,
            boolean spot, Instant createdAt) {
        this(runId, step, number, jobId, pricePerHour, spot, Optional.empty(), createdAt);
    }

    /**
     * A new attempt, not evicted, not ended, in {@code region} when that is not the step's planned one.
     *
     * @param runId the run's id
     * @param step the step's name
     * @param number the attempt's number, from 1
     * @param jobId the job id, also the idempotency key
     * @param pricePerHour what it costs an hour, if known
     * @param spot whether on Spot capacity
     * @param region the region it moved to, or empty for the step's planned one
     * @param createdAt when submitted
     */
    public AttemptRecord(String runId, String step, int number, String jobId, OptionalDouble pricePerHour,
            boolean spot, Optional<String> region, Instant createdAt) {
        this(runId, step, number, jobId, pricePerHour, spot, region, createdAt, 0, Optional.empty());
    }

    /**
     * This attempt with its eviction count.
     *
     * @param count the evictions in all, 0 or more
     * @return a copy with that count
     */
    public AttemptRecord withEvictions(int count) {
        return new AttemptRecord(runId, step, number, jobId, pricePerHour, spot, region, createdAt, count, outcome);
    }

    /**
     * This attempt once its job ended.
     *
     * @param how how it ended
     * @return a copy with that outcome
     */
    public AttemptRecord ended(AttemptOutcome how) {
        return new AttemptRecord(runId, step, number, jobId, pricePerHour, spot, region, createdAt, evictions,
                Optional.of(how));
    }
}
