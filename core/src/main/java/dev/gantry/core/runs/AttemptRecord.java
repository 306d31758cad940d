package dev.gantry.core.runs;

import java.time.Instant;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One job submitted for a step: the link from a run to the job records ({@code jobs}) that did its work.
 *
 * @param runId the run
 * @param step the step's name
 * @param number which attempt of the step, from 1
 * @param jobId the job's id in the job store
 * @param pricePerHour what its placement cost an hour when chosen, if known
 * @param spot whether it ran on spot capacity
 * @param createdAt when it was submitted
 */
public record AttemptRecord(
        String runId,
        String step,
        int number,
        String jobId,
        OptionalDouble pricePerHour,
        boolean spot,
        Instant createdAt) {

    public AttemptRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(pricePerHour, "pricePerHour");
        Objects.requireNonNull(createdAt, "createdAt");
        if (number < 1) {
            throw new IllegalArgumentException("an attempt's number is 1 or more: " + number);
        }
    }
}
