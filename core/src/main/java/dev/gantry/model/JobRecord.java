package dev.gantry.model;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What Gantry remembers of a job, persisted before and after every remote call so that a killed process can
 * reattach: a record in {@link Stage#SUBMITTING} has no backend reference yet, and resubmitting it with its
 * idempotency key finds the job if the backend created it.
 *
 * @param id Gantry's job id, also the idempotency key given to the backend
 * @param workload the workload name
 * @param specFile the spec file it came from, if any
 * @param backend the backend name
 * @param ref the backend's reference, once submitted
 * @param stage how far submission got
 * @param state the last state seen
 * @param exitCode the exit code once ended
 * @param message the last status message
 * @param placement a one-line summary of the plan: size, region, capacity, price
 * @param createdAt when the record was created
 * @param updatedAt when it last changed
 * @param startedAt when the job started running, if known
 * @param endedAt when it ended, if known
 * @param evictions how often its capacity was evicted so far, as the backend counts (a requeueing orchestrator keeps
 *     the job and raises this; one that cannot ends it PREEMPTED)
 * @param lastEviction the last of those evictions; present exactly when {@code evictions > 0}
 * @param labels the labels of the workload as submitted: its spec's {@code metadata.labels} with those of the
 *     submit request over them; empty for a record from before labels were kept
 */
public record JobRecord(
        String id,
        String workload,
        Optional<String> specFile,
        String backend,
        Optional<JobRef> ref,
        Stage stage,
        JobState state,
        OptionalInt exitCode,
        String message,
        String placement,
        Instant createdAt,
        Instant updatedAt,
        Optional<Instant> startedAt,
        Optional<Instant> endedAt,
        int evictions,
        Optional<Eviction> lastEviction,
        Map<String, String> labels) {

    /** How far submission got. */
    public enum Stage {
        /** Persisted before the submit call; the backend may or may not have the job. */
        SUBMITTING,
        /** The backend answered with a reference. */
        SUBMITTED
    }

    /**
     * Checks the record and copies its labels.
     *
     * @param id the job id; required
     * @param workload the workload's name; required
     * @param specFile the spec file, or empty
     * @param backend the backend's name; required
     * @param ref the backend's reference, or empty before the backend answered
     * @param stage how far submission got; required
     * @param state the last state; required
     * @param exitCode the exit code, or empty
     * @param message the last message, may be empty text
     * @param placement the plan's summary line
     * @param createdAt the creation time; required
     * @param updatedAt the last change; required
     * @param startedAt the start, or empty
     * @param endedAt the end, or empty
     * @param evictions evictions so far, 0 or more
     * @param lastEviction the last eviction, present exactly when {@code evictions > 0}
     * @param labels the labels, copied in order
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code evictions} is negative or disagrees with {@code lastEviction}
     */
    public JobRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(specFile, "specFile");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(lastEviction, "lastEviction");
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(labels, "labels")));
        if (evictions < 0 || (evictions > 0) != lastEviction.isPresent()) {
            throw new IllegalArgumentException("a job has 0 or more evictions, and a last one exactly when more than "
                    + "0: " + evictions + ", " + lastEviction);
        }
    }

    /**
     * A record without labels, as records from before labels were kept read.
     *
     * @param id see {@link #id()}
     * @param workload see {@link #workload()}
     * @param specFile see {@link #specFile()}
     * @param backend see {@link #backend()}
     * @param ref see {@link #ref()}
     * @param stage see {@link #stage()}
     * @param state see {@link #state()}
     * @param exitCode see {@link #exitCode()}
     * @param message see {@link #message()}
     * @param placement see {@link #placement()}
     * @param createdAt see {@link #createdAt()}
     * @param updatedAt see {@link #updatedAt()}
     * @param startedAt see {@link #startedAt()}
     * @param endedAt see {@link #endedAt()}
     * @param evictions see {@link #evictions()}
     * @param lastEviction see {@link #lastEviction()}
     */
    public JobRecord(String id, String workload, Optional<String> specFile, String backend, Optional<JobRef> ref,
            Stage stage, JobState state, OptionalInt exitCode, String message, String placement, Instant createdAt,
            Instant updatedAt, Optional<Instant> startedAt, Optional<Instant> endedAt, int evictions,
            Optional<Eviction> lastEviction) {
        this(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement, createdAt, updatedAt,
                startedAt, endedAt, evictions, lastEviction, Map.of());
    }

    /**
     * A record of a job never evicted, without labels.
     *
     * @param id Gantry's job id
     * @param workload the name of the workload it runs
     * @param specFile where its spec was read, if anywhere
     * @param backend which backend runs it
     * @param ref the backend's reference, once it answered
     * @param stage how far its submission got
     * @param state its last state seen
     * @param exitCode its exit code, once ended with one
     * @param message its last status message
     * @param placement its plan in one line
     * @param createdAt when its record was made
     * @param updatedAt when its record last changed
     * @param startedAt when it started running
     * @param endedAt when it ended
     */
    public JobRecord(String id, String workload, Optional<String> specFile, String backend, Optional<JobRef> ref,
            Stage stage, JobState state, OptionalInt exitCode, String message, String placement, Instant createdAt,
            Instant updatedAt, Optional<Instant> startedAt, Optional<Instant> endedAt) {
        this(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement, createdAt, updatedAt,
                startedAt, endedAt, 0, Optional.empty(), Map.of());
    }

    /**
     * The record saved before the submit call: PENDING, with no backend reference yet.
     *
     * @param id the job id, which is also the idempotency key
     * @param workload the workload's name
     * @param specFile the spec file, or empty
     * @param backend the backend's name
     * @param placement the plan in one line: size, region, capacity, price
     * @param now the time, for both created and updated
     * @return the record, {@link Stage#SUBMITTING}
     */
    public static JobRecord submitting(String id, String workload, Optional<String> specFile, String backend,
                                       String placement, Instant now) {
        return new JobRecord(id, workload, specFile, backend, Optional.empty(), Stage.SUBMITTING, JobState.PENDING,
                OptionalInt.empty(), "submitting", placement, now, now, Optional.empty(), Optional.empty());
    }

    /**
     * This record once the backend answered the submit.
     *
     * @param jobRef the backend's reference to the job
     * @param now the time of the answer
     * @return a copy, {@link Stage#SUBMITTED}, with the reference and the message {@code submitted}
     */
    public JobRecord submitted(JobRef jobRef, Instant now) {
        return new JobRecord(id, workload, specFile, backend, Optional.of(jobRef), Stage.SUBMITTED, state, exitCode,
                "submitted", placement, createdAt, now, startedAt, endedAt, evictions, lastEviction, labels);
    }

    /**
     * This record with these labels instead of its own.
     *
     * @param values the labels, in the order to keep them
     * @return a copy with those labels
     */
    public JobRecord withLabels(Map<String, String> values) {
        return new JobRecord(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement,
                createdAt, updatedAt, startedAt, endedAt, evictions, lastEviction, values);
    }

    /**
     * This record with a status the backend reported. Times the status leaves out keep their recorded values, and
     * the eviction count never goes down (a backend that forgot an eviction does not erase it).
     *
     * @param status the backend's status of the job
     * @param now the time it was read
     * @return a copy with the state, exit code, message, times and evictions of the status
     */
    public JobRecord withStatus(dev.gantry.api.backend.JobStatus status, Instant now) {
        return new JobRecord(id, workload, specFile, backend, ref, stage, status.state(), status.exitCode(),
                status.message(), placement, createdAt, now, status.startedAt().or(() -> startedAt),
                status.endedAt().or(() -> endedAt), Math.max(evictions, status.evictions()),
                status.evictions() >= evictions && status.lastEviction().isPresent() ? status.lastEviction()
                : lastEviction, labels);
    }
}
