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

    /** A record without labels. */
    public JobRecord(String id, String workload, Optional<String> specFile, String backend, Optional<JobRef> ref,
            Stage stage, JobState state, OptionalInt exitCode, String message, String placement, Instant createdAt,
            Instant updatedAt, Optional<Instant> startedAt, Optional<Instant> endedAt, int evictions,
            Optional<Eviction> lastEviction) {
        this(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement, createdAt, updatedAt,
                startedAt, endedAt, evictions, lastEviction, Map.of());
    }

    /** A record of a job never evicted, without labels. */
    public JobRecord(String id, String workload, Optional<String> specFile, String backend, Optional<JobRef> ref,
            Stage stage, JobState state, OptionalInt exitCode, String message, String placement, Instant createdAt,
            Instant updatedAt, Optional<Instant> startedAt, Optional<Instant> endedAt) {
        this(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement, createdAt, updatedAt,
                startedAt, endedAt, 0, Optional.empty(), Map.of());
    }

    public static JobRecord submitting(String id, String workload, Optional<String> specFile, String backend,
                                       String placement, Instant now) {
        return new JobRecord(id, workload, specFile, backend, Optional.empty(), Stage.SUBMITTING, JobState.PENDING,
                OptionalInt.empty(), "submitting", placement, now, now, Optional.empty(), Optional.empty());
    }

    public JobRecord submitted(JobRef jobRef, Instant now) {
        return new JobRecord(id, workload, specFile, backend, Optional.of(jobRef), Stage.SUBMITTED, state, exitCode,
                "submitted", placement, createdAt, now, startedAt, endedAt, evictions, lastEviction, labels);
    }

    /** This record with these labels instead of its own. */
    public JobRecord withLabels(Map<String, String> values) {
        return new JobRecord(id, workload, specFile, backend, ref, stage, state, exitCode, message, placement,
                createdAt, updatedAt, startedAt, endedAt, evictions, lastEviction, values);
    }

    public JobRecord withStatus(dev.gantry.api.backend.JobStatus status, Instant now) {
        return new JobRecord(id, workload, specFile, backend, ref, stage, status.state(), status.exitCode(),
                status.message(), placement, createdAt, now, status.startedAt().or(() -> startedAt),
                status.endedAt().or(() -> endedAt), Math.max(evictions, status.evictions()),
                status.evictions() >= evictions && status.lastEviction().isPresent() ? status.lastEviction()
                : lastEviction, labels);
    }
}
