package dev.gantry.backend.cyclecloud.internal.pbs;

import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import dev.gantry.backend.cyclecloud.internal.StateTable;
import dev.gantry.backend.cyclecloud.internal.TabledState;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every {@code job_state} letter of PBS Professional / OpenPBS (qstat(1B), pbs_job_attributes(7B)), mapped to Gantry's
 * {@link JobState}. A finished job (F, or X for a subjob) needs more than its letter: {@link #jobState(OptionalInt,
 * Optional)} reads its {@code substate} and {@code Exit_status} too. A job PBS requeued after its node was lost is
 * Q again with its {@code run_count} raised (see {@link QstatJson.Job#requeues()}), never FAILED.
 */
public enum PbsState implements TabledState {
    BEGUN('B', JobState.RUNNING, StateKind.ACTIVE, "a job array with at least one subjob running"),
    EXITING('E', JobState.RUNNING, StateKind.ACTIVE, "exiting after having run: PBS is cleaning up"),
    FINISHED('F', JobState.UNKNOWN, StateKind.DONE, "finished; its Exit_status says how"),
    HELD('H', JobState.PENDING, StateKind.WAITING, "held: waiting for the jobs it depends on or a hold (qrls releases "
            + "a user hold; PBS holds a job that failed to start 21 times)"),
    MOVED('M', JobState.UNKNOWN, StateKind.DONE, "moved to another server; ask that server (qstat ID@server)"),
    QUEUED('Q', JobState.PENDING, StateKind.WAITING, "queued, waiting for resources"),
    RUNNING('R', JobState.RUNNING, StateKind.ACTIVE, "running"),
    SUSPENDED('S', JobState.RUNNING, StateKind.ACTIVE, "suspended; it resumes where it was"),
    TRANSITING('T', JobState.PENDING, StateKind.WAITING, "being routed or moved to a new destination"),
    USER_SUSPENDED('U', JobState.RUNNING, StateKind.ACTIVE, "suspended while its workstation is busy (cycle "
            + "harvesting)"),
    WAITING('W', JobState.PENDING, StateKind.WAITING, "waiting for its start time, or 30 minutes after a failed "
            + "stage-in"),
    EXPIRED('X', JobState.UNKNOWN, StateKind.DONE, "a subjob that finished or was deleted; its Exit_status says how");

    private static final StateTable<PbsState> TABLE = StateTable.of(PbsState.class,
            state -> List.of(String.valueOf(state.letter)));

    /** Substates of a finished job, from the OGF-BES model (OpenPBS job.h): terminated is deleted on request. */
    static final int SUBSTATE_TERMINATED = 91;
    static final int SUBSTATE_FINISHED = 92;
    static final int SUBSTATE_FAILED = 93;
    static final int SUBSTATE_MOVED = 94;

    private final char letter;
    private final Row row;

    PbsState(char letter, JobState jobState, StateKind kind, String meaning) {
        this.letter = letter;
        this.row = new Row(jobState, kind, meaning);
    }

    /** The letter qstat prints ({@code job_state}). */
    public char letter() {
        return letter;
    }

    /** The state as far as the letter tells: UNKNOWN for F, M and X, whose end needs more (see below). */
    @Override
    public Row row() {
        return row;
    }

    /** Whether the job is still to start (queued, held, waiting or in transit). */
    public boolean isPending() {
        return kind() == StateKind.WAITING;
    }

    /**
     * How the job stands, with what a finished job's {@code substate} and {@code Exit_status} add: deleted
     * (substate 91) is CANCELLED; moved (94) UNKNOWN; otherwise the exit status decides
     * ({@link PbsExitStatus#jobState()}), and a finished job without one never ran: FAILED when PBS says it failed
     * (93), CANCELLED otherwise (deleted while queued). The other letters are what they are.
     */
    public JobState jobState(OptionalInt substate, Optional<PbsExitStatus> exitStatus) {
        if (this != FINISHED && this != EXPIRED) {
            return jobState();
        }
        int sub = substate.orElse(-1);
        if (sub == SUBSTATE_TERMINATED) {
            return JobState.CANCELLED;
        }
        if (sub == SUBSTATE_MOVED) {
            return JobState.UNKNOWN;
        }
        if (exitStatus.isPresent()) {
            JobState end = exitStatus.get().jobState();
            // PBS saying the job failed outranks a zero exit status (a failed stage-out, say).
            return sub == SUBSTATE_FAILED && end == JobState.SUCCEEDED ? JobState.FAILED : end;
        }
        return sub == SUBSTATE_FAILED ? JobState.FAILED : JobState.CANCELLED;
    }

    /** The state for a letter as PBS prints it; empty for anything else (a newer release's letter). */
    public static Optional<PbsState> parse(String text) {
        return TABLE.find(text.strip());
    }
}
