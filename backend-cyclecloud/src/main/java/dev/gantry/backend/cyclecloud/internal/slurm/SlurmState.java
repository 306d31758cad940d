package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.backend.JobState;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every job state squeue(1) lists under "JOB STATE CODES" ({@code squeue -o %T}, the long names; {@code %t}, the
 * compact codes), mapped to
 * Gantry's {@link JobState}. A job taken down with its node (NODE_FAIL, BOOT_FAIL) or by the scheduler (PREEMPTED)
 * was evicted, never FAILED: it ends PREEMPTED and resumable when Slurm does not requeue it, and a requeued one
 * shows REQUEUED/REQUEUE_HOLD on its way back to PENDING, with the eviction counted.
 */
public enum SlurmState {
    PENDING("PD", JobState.PENDING, Kind.WAITING, "waiting for resources"),
    CONFIGURING("CF", JobState.PROVISIONING, Kind.WAITING, "nodes being configured (booting or powering up)"),
    RUNNING("R", JobState.RUNNING, Kind.ACTIVE, "running"),
    COMPLETING("CG", JobState.RUNNING, Kind.ACTIVE, "completing (processes ending, epilog running)"),
    COMPLETED("CD", JobState.SUCCEEDED, Kind.DONE, "completed with exit code 0 on every node"),
    FAILED("F", JobState.FAILED, Kind.DONE, "failed with a non-zero exit code"),
    TIMEOUT("TO", JobState.FAILED, Kind.DONE, "killed at its time limit; raise the time limit or checkpoint"),
    OUT_OF_MEMORY("OOM", JobState.FAILED, Kind.DONE, "killed for running out of memory; ask for more memory"),
    DEADLINE("DL", JobState.FAILED, Kind.DONE, "not finished by its deadline"),
    SPECIAL_EXIT("SE", JobState.FAILED, Kind.DONE, "held after a special exit value (requeue it to run again)"),
    CANCELLED("CA", JobState.CANCELLED, Kind.DONE, "cancelled"),
    REVOKED("RV", JobState.CANCELLED, Kind.DONE, "revoked: a sibling cluster of the federation runs it"),
    NODE_FAIL("NF", JobState.PREEMPTED, Kind.EVICTED, "its node failed (evicted); resumable from its last checkpoint"),
    BOOT_FAIL("BF", JobState.PREEMPTED, Kind.EVICTED, "its node failed to boot (evicted); resumable from its last "
            + "checkpoint"),
    PREEMPTED("PR", JobState.PREEMPTED, Kind.EVICTED, "preempted by the scheduler; resumable from its last checkpoint"),
    REQUEUED("RQ", JobState.PENDING, Kind.REQUEUED, "requeued after an eviction; it runs again"),
    REQUEUE_HOLD("RH", JobState.PENDING, Kind.REQUEUED, "requeued and held; release it (scontrol release) to run again"),
    REQUEUE_FED("RF", JobState.PENDING, Kind.REQUEUED, "requeued by the federation; it runs again"),
    RESV_DEL_HOLD("RD", JobState.PENDING, Kind.WAITING, "held: its reservation was deleted"),
    SUSPENDED("S", JobState.RUNNING, Kind.ACTIVE, "suspended by the scheduler; it resumes where it was"),
    STOPPED("ST", JobState.RUNNING, Kind.ACTIVE, "stopped (SIGSTOP); it resumes when continued"),
    RESIZING("RS", JobState.RUNNING, Kind.ACTIVE, "changing size"),
    SIGNALING("SI", JobState.RUNNING, Kind.ACTIVE, "being signalled"),
    STAGE_OUT("SO", JobState.RUNNING, Kind.ACTIVE, "staging out its data");

    /** How a state counts for tracking: still to start, started, ended, or an eviction on either side. */
    public enum Kind {
        WAITING, ACTIVE, DONE, EVICTED, REQUEUED
    }

    private static final Map<String, SlurmState> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(Enum::name, Function.identity()));
    private static final Map<String, SlurmState> BY_CODE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(SlurmState::code, Function.identity()));

    private final String code;
    private final JobState jobState;
    private final Kind kind;
    private final String meaning;

    SlurmState(String code, JobState jobState, Kind kind, String meaning) {
        this.code = code;
        this.jobState = jobState;
        this.kind = kind;
        this.meaning = meaning;
    }

    /** The compact code {@code squeue -o %t} prints. */
    public String code() {
        return code;
    }

    public JobState jobState() {
        return jobState;
    }

    public Kind kind() {
        return kind;
    }

    /** What the state means for the user, for status messages. */
    public String meaning() {
        return meaning;
    }

    /** Whether reaching this state is an eviction (the job's count of evictions rises). */
    public boolean isEviction() {
        return kind == Kind.EVICTED || kind == Kind.REQUEUED;
    }

    /**
     * A state as Slurm prints it: the long name ({@code RUNNING}, {@code NODE_FAIL}) or the compact code
     * ({@code R}, {@code NF}), in any case; extra flags after a space or {@code +} ({@code CANCELLED by 1000},
     * {@code RUNNING+}) are ignored. Empty for a state this table does not know (a newer Slurm's).
     */
    public static Optional<SlurmState> parse(String text) {
        String word = text.strip().split("[\\s+]", 2)[0].toUpperCase(Locale.ROOT);
        if (word.isEmpty()) {
            return Optional.empty();
        }
        SlurmState byName = BY_NAME.get(word);
        return byName != null ? Optional.of(byName) : Optional.ofNullable(BY_CODE.get(word));
    }
}
