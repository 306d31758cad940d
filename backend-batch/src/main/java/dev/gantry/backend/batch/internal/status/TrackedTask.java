package dev.gantry.backend.batch.internal.status;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the caller's records hold about one submitted task: everything status, logs and cancel need, as a value.
 *
 * @param ref where the task is in Batch
 * @param poolId the pool its job runs on (for resize errors and preempted nodes)
 * @param submittedAt when it was submitted (the list filter starts from the earliest of these, less a margin)
 * @param nodes how many nodes it runs on (more than one: a multi-instance task with ranks)
 * @param record what Gantry recorded about it (its cancel, evictions, the last run seen)
 * @param dependencies every dependency it was submitted with, native or held
 * @param heldReason present when Gantry holds the task itself (not yet added to Batch), with why
 * @param ended its terminal status when the caller already recorded one: answered without a call
 */
public record TrackedTask(TaskRef ref, String poolId, Instant submittedAt, int nodes, TaskRecord record,
                          List<JobDependency> dependencies, Optional<String> heldReason, Optional<JobStatus> ended) {
    public TrackedTask {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(poolId, "poolId");
        Objects.requireNonNull(submittedAt, "submittedAt");
        Objects.requireNonNull(record, "record");
        dependencies = List.copyOf(dependencies);
        Objects.requireNonNull(heldReason, "heldReason");
        Objects.requireNonNull(ended, "ended");
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be at least 1, got " + nodes);
        }
        if (ended.isPresent() && !ended.get().state().isTerminal()) {
            throw new IllegalArgumentException("ended must be a terminal status, got " + ended.get().state());
        }
    }

    /** A task added to Batch, nothing seen yet. */
    public static TrackedTask submitted(TaskRef ref, String poolId, Instant submittedAt, int nodes, String program,
                                        List<JobDependency> dependencies) {
        return new TrackedTask(ref, poolId, submittedAt, nodes, TaskRecord.submitted(program), dependencies,
                Optional.empty(), Optional.empty());
    }

    /** A task Gantry holds until its dependencies end. */
    public static TrackedTask held(TaskRef ref, String poolId, Instant submittedAt, int nodes, String program,
                                   List<JobDependency> dependencies, String reason) {
        return new TrackedTask(ref, poolId, submittedAt, nodes, TaskRecord.submitted(program), dependencies,
                Optional.of(reason), Optional.empty());
    }

    public boolean held() {
        return heldReason.isPresent();
    }

    public TrackedTask withRecord(TaskRecord newRecord) {
        return new TrackedTask(ref, poolId, submittedAt, nodes, newRecord, dependencies, heldReason, ended);
    }

    public TrackedTask withEnded(JobStatus status) {
        return new TrackedTask(ref, poolId, submittedAt, nodes, record, dependencies, heldReason, Optional.of(status));
    }

    /** The task once added to Batch (a held task whose dependencies ended as they must). */
    public TrackedTask added() {
        return new TrackedTask(ref, poolId, submittedAt, nodes, record, dependencies, Optional.empty(), ended);
    }
}
