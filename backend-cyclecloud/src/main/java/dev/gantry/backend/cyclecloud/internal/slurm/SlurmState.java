package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import dev.gantry.backend.cyclecloud.internal.StateTable;
import dev.gantry.backend.cyclecloud.internal.TabledState;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every job state squeue(1) lists under "JOB STATE CODES" ({@code squeue -o %T}, the long names; {@code %t}, the
 * compact codes), mapped to
 * Gantry's {@link JobState}. A job taken down with its node (NODE_FAIL, BOOT_FAIL) or by the scheduler (PREEMPTED)
 * was evicted, never FAILED: it ends PREEMPTED and resumable when Slurm does not requeue it, and a requeued one
 * shows REQUEUED/REQUEUE_HOLD on its way back to PENDING, with the eviction counted.
 */
public enum SlurmState implements TabledState {
    PENDING("PD", JobState.PENDING, StateKind.WAITING, "waiting for resources"),
    CONFIGURING("CF", JobState.PROVISIONING, StateKind.WAITING, "nodes being configured (booting or powering up)"),
    RUNNING("R", JobState.RUNNING, StateKind.ACTIVE, "running"),
    COMPLETING("CG", JobState.RUNNING, StateKind.ACTIVE, "completing (processes ending, epilog running)"),
    COMPLETED("CD", JobState.SUCCEEDED, StateKind.DONE, "completed with exit code 0 on every node"),
    FAILED("F", JobState.FAILED, StateKind.DONE, "failed with a non-zero exit code"),
    TIMEOUT("TO", JobState.FAILED, StateKind.DONE, "killed at its time limit; raise the time limit or checkpoint"),
    OUT_OF_MEMORY("OOM", JobState.FAILED, StateKind.DONE, "killed for running out of memory; ask for more memory"),
    DEADLINE("DL", JobState.FAILED, StateKind.DONE, "not finished by its deadline"),
    SPECIAL_EXIT("SE", JobState.FAILED, StateKind.DONE, "held after a special exit value (requeue it to run again)"),
    CANCELLED("CA", JobState.CANCELLED, StateKind.DONE, "cancelled"),
    REVOKED("RV", JobState.CANCELLED, StateKind.DONE, "revoked: a sibling cluster of the federation runs it"),
    NODE_FAIL("NF", JobState.PREEMPTED, StateKind.EVICTED, "its node failed (evicted); resumable from its last "
            + "checkpoint"),
    BOOT_FAIL("BF", JobState.PREEMPTED, StateKind.EVICTED, "its node failed to boot (evicted); resumable from its last "
            + "checkpoint"),
    PREEMPTED("PR", JobState.PREEMPTED, StateKind.EVICTED, "preempted by the scheduler; resumable from its last "
            + "checkpoint"),
    REQUEUED("RQ", JobState.PENDING, StateKind.REQUEUED, "requeued after an eviction; it runs again"),
    REQUEUE_HOLD("RH", JobState.PENDING, StateKind.REQUEUED, "requeued and held; release it (scontrol release) to run "
            + "again"),
    REQUEUE_FED("RF", JobState.PENDING, StateKind.REQUEUED, "requeued by the federation; it runs again"),
    RESV_DEL_HOLD("RD", JobState.PENDING, StateKind.WAITING, "held: its reservation was deleted"),
    SUSPENDED("S", JobState.RUNNING, StateKind.ACTIVE, "suspended by the scheduler; it resumes where it was"),
    STOPPED("ST", JobState.RUNNING, StateKind.ACTIVE, "stopped (SIGSTOP); it resumes when continued"),
    RESIZING("RS", JobState.RUNNING, StateKind.ACTIVE, "changing size"),
    SIGNALING("SI", JobState.RUNNING, StateKind.ACTIVE, "being signalled"),
    STAGE_OUT("SO", JobState.RUNNING, StateKind.ACTIVE, "staging out its data");

    private static final StateTable<SlurmState> TABLE = StateTable.of(SlurmState.class,
            state -> List.of(state.name(), state.code()));

    private final String code;
    private final Row row;

    SlurmState(String code, JobState jobState, StateKind kind, String meaning) {
        this.code = code;
        this.row = new Row(jobState, kind, meaning);
    }

    /** The compact code {@code squeue -o %t} prints. */
    public String code() {
        return code;
    }

    @Override
    public Row row() {
        return row;
    }

    /**
     * A state as Slurm prints it: the long name ({@code RUNNING}, {@code NODE_FAIL}) or the compact code
     * ({@code R}, {@code NF}), in any case; extra flags after a space or {@code +} ({@code CANCELLED by 1000},
     * {@code RUNNING+}) are ignored. Empty for a state this table does not know (a newer Slurm's).
     */
    public static Optional<SlurmState> parse(String text) {
        String word = text.strip().split("[\\s+]", 2)[0].toUpperCase(Locale.ROOT);
        return TABLE.find(word);
    }
}
