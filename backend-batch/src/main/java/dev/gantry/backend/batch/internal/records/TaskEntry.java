package dev.gantry.backend.batch.internal.records;

import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the backend keeps about one task in its state directory, so that another process (a resumed run, a
 * {@code gantry status}) knows it: where it is, what was asked, what was seen. Never a secret value: the secrets stay
 * in their blob, named here only so that it can be deleted.
 *
 * @param ref where the task is in Batch ({@code ACCOUNT.JOB.TASK} is the JobRef's id)
 * @param idempotencyKey the key it was submitted with (its task id is derived from it)
 * @param poolId the pool its job runs on
 * @param submittedAt when Gantry first submitted it (the status side lists tasks changed since the earliest)
 * @param phase how far the submit went
 * @param record Gantry's own record for the status table (its cancel, evictions, last run seen)
 * @param terminal the terminal status once seen: answered from here without a call
 * @param held the dependencies Gantry waits for itself (Batch cannot carry them); empty unless {@code HELD}
 * @param heldTask the body to add once they have ended, as {@code WireJson.compact} writes a
 *     {@code TaskAddParameter}; present exactly while {@code HELD}
 * @param secretsBlob the name of the blob holding its secrets file in {@code secrets.containerUrl}, if it has
 *     secrets: the status side deletes it once the task has ended
 * @param failure why the submit failed, in Batch's words; present exactly when {@code FAILED}
 * @param nodes the plan's node count (more than one: a multi-instance task, whose ranks status and logs read)
 * @param dependencies every dependency it was submitted with, native or held (status looks at them to cancel a task
 *     whose dependency can no longer succeed); entries written before this field was kept read as their held ones
 */
public record TaskEntry(TaskRef ref, String idempotencyKey, String poolId, Instant submittedAt, Phase phase,
                        TaskRecord record, Optional<JobStatus> terminal, List<JobDependency> held,
                        Optional<String> heldTask, Optional<String> secretsBlob, Optional<String> failure, int nodes,
                        List<JobDependency> dependencies) {
    /** How far a task's submit went. */
    public enum Phase {
        /** About to be sent, or sent without an answer yet: sending it again is safe (its id is its key's). */
        SENDING,
        /** Batch has it (added, or found there after a lost reply). */
        ADDED,
        /** Held by Gantry until its dependencies end: not in Batch yet. */
        HELD,
        /** Batch refused it for good; {@link #failure} says why. */
        FAILED
    }

    public TaskEntry {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(poolId, "poolId");
        Objects.requireNonNull(submittedAt, "submittedAt");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(terminal, "terminal");
        held = List.copyOf(held);
        Objects.requireNonNull(heldTask, "heldTask");
        Objects.requireNonNull(secretsBlob, "secretsBlob");
        Objects.requireNonNull(failure, "failure");
        dependencies = List.copyOf(dependencies);
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be at least 1, not " + nodes);
        }
        if ((phase == Phase.HELD) != heldTask.isPresent()) {
            throw new IllegalArgumentException("a task body is kept exactly while the task is held, not in " + phase);
        }
        if ((phase == Phase.FAILED) != failure.isPresent()) {
            throw new IllegalArgumentException("a failure is kept exactly when the submit failed, not in " + phase);
        }
    }

    /** An entry of one node whose dependencies are its held ones (the form entries had before both were kept). */
    public TaskEntry(TaskRef ref, String idempotencyKey, String poolId, Instant submittedAt, Phase phase,
                     TaskRecord record, Optional<JobStatus> terminal, List<JobDependency> held,
                     Optional<String> heldTask, Optional<String> secretsBlob, Optional<String> failure) {
        this(ref, idempotencyKey, poolId, submittedAt, phase, record, terminal, held, heldTask, secretsBlob, failure,
                1, held);
    }

    /** A task of one node without dependencies about to be sent for the first time. */
    public static TaskEntry sending(TaskRef ref, String idempotencyKey, String poolId, Instant now, String program,
                                    Optional<String> secretsBlob) {
        return sending(ref, idempotencyKey, poolId, now, program, secretsBlob, 1, List.of());
    }

    /** A task about to be sent for the first time, on {@code nodes} nodes, after {@code dependencies}. */
    public static TaskEntry sending(TaskRef ref, String idempotencyKey, String poolId, Instant now, String program,
                                    Optional<String> secretsBlob, int nodes, List<JobDependency> dependencies) {
        return new TaskEntry(ref, idempotencyKey, poolId, now, Phase.SENDING, TaskRecord.submitted(program),
                Optional.empty(), List.of(), Optional.empty(), secretsBlob, Optional.empty(), nodes, dependencies);
    }

    /** A task of one node Gantry holds until {@code dependencies} end, {@code taskJson} to add then. */
    public static TaskEntry held(TaskRef ref, String idempotencyKey, String poolId, Instant now, String program,
                                 Optional<String> secretsBlob, List<JobDependency> dependencies, String taskJson) {
        return held(ref, idempotencyKey, poolId, now, program, secretsBlob, dependencies, taskJson, 1);
    }

    /** A task on {@code nodes} nodes Gantry holds until {@code dependencies} (all of them) end. */
    public static TaskEntry held(TaskRef ref, String idempotencyKey, String poolId, Instant now, String program,
                                 Optional<String> secretsBlob, List<JobDependency> dependencies, String taskJson,
                                 int nodes) {
        return new TaskEntry(ref, idempotencyKey, poolId, now, Phase.HELD, TaskRecord.submitted(program),
                Optional.empty(), dependencies, Optional.of(taskJson), secretsBlob, Optional.empty(), nodes,
                dependencies);
    }

    /** The account's name. */
    public String account() {
        return ref.account();
    }

    /** The Batch job (one per pool). */
    public String jobId() {
        return ref.jobId();
    }

    /** This entry once Batch has the task (a held task added later keeps no body and no held list). */
    public TaskEntry added() {
        return new TaskEntry(ref, idempotencyKey, poolId, submittedAt, Phase.ADDED, record, terminal, List.of(),
                Optional.empty(), secretsBlob, Optional.empty(), nodes, dependencies);
    }

    /** This entry once Batch refused the task for good. */
    public TaskEntry failed(String why) {
        return new TaskEntry(ref, idempotencyKey, poolId, submittedAt, Phase.FAILED, record, terminal, List.of(),
                Optional.empty(), secretsBlob, Optional.of(why), nodes, dependencies);
    }

    public TaskEntry withRecord(TaskRecord newRecord) {
        return new TaskEntry(ref, idempotencyKey, poolId, submittedAt, phase, newRecord, terminal, held, heldTask,
                secretsBlob, failure, nodes, dependencies);
    }

    /** This entry with its terminal status, which no later poll changes. */
    public TaskEntry withTerminal(JobStatus status) {
        if (!status.state().isTerminal()) {
            throw new IllegalArgumentException("only a terminal status is kept, not " + status.state());
        }
        return new TaskEntry(ref, idempotencyKey, poolId, submittedAt, phase, record, Optional.of(status), held,
                heldTask, secretsBlob, failure, nodes, dependencies);
    }
}
