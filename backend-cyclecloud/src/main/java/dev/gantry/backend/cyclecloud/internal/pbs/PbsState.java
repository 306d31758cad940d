package dev.gantry.backend.cyclecloud.internal.pbs;

import dev.gantry.api.backend.JobState;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every {@code job_state} letter of PBS Professional / OpenPBS (qstat(1B), pbs_job_attributes(7B)), mapped to Gantry's
 * {@link JobState}. A finished job (F, or X for a subjob) needs more than its letter: {@link #jobState(OptionalInt,
 * Optional)} reads its {@code substate} and {@code Exit_status} too. A job PBS requeued after its node was lost is
 * Q again with its {@code run_count} raised (see {@link QstatJson.Job#requeues()}), never FAILED.
 */
public enum PbsState {
    BEGUN('B', JobState.RUNNING, Kind.ACTIVE, "a job array with at least one subjob running"),
    EXITING('E', JobState.RUNNING, Kind.ACTIVE, "exiting after having run: PBS is cleaning up"),
    FINISHED('F', JobState.UNKNOWN, Kind.DONE, "finished; its Exit_status says how"),
    HELD('H', JobState.PENDING, Kind.WAITING, "held: waiting for the jobs it depends on or a hold (qrls releases a "
            + "user hold; PBS holds a job that failed to start 21 times)"),
    MOVED('M', JobState.UNKNOWN, Kind.DONE, "moved to another server; ask that server (qstat ID@server)"),
    QUEUED('Q', JobState.PENDING, Kind.WAITING, "queued, waiting for resources"),
    RUNNING('R', JobState.RUNNING, Kind.ACTIVE, "running"),
    SUSPENDED('S', JobState.RUNNING, Kind.ACTIVE, "suspended; it resumes where it was"),
    TRANSITING('T', JobState.PENDING, Kind.WAITING, "being routed or moved to a new destination"),
    USER_SUSPENDED('U', JobState.RUNNING, Kind.ACTIVE, "suspended while its workstation is busy (cycle harvesting)"),
    WAITING('W', JobState.PENDING, Kind.WAITING, "waiting for its start time, or 30 minutes after a failed stage-in"),
    EXPIRED('X', JobState.UNKNOWN, Kind.DONE, "a subjob that finished or was deleted; its Exit_status says how");

    /** How a state counts for tracking: still to start, started, or ended. */
    public enum Kind {
        WAITING, ACTIVE, DONE
    }

    /** Substates of a finished job, from the OGF-BES model (OpenPBS job.h): terminated is deleted on request. */
    static final int SUBSTATE_TERMINATED = 91;
    static final int SUBSTATE_FINISHED = 92;
    static final int SUBSTATE_FAILED = 93;
    static final int SUBSTATE_MOVED = 94;

    private final char letter;
    private final JobState jobState;
    private final Kind kind;
    private final String meaning;

    PbsState(char letter, JobState jobState, Kind kind, String meaning) {
        this.letter = letter;
        this.jobState = jobState;
        this.kind = kind;
        this.meaning = meaning;
    }

    /** The letter qstat prints ({@code job_state}). */
    public char letter() {
        return letter;
    }

    /** The state as far as the letter tells; UNKNOWN for F, M and X, whose end needs more (see below). */
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

    /** Whether the job is still to start (queued, held, waiting or in transit). */
    public boolean isPending() {
        return kind == Kind.WAITING;
    }

    /**
     * How the job stands, with what a finished job's {@code substate} and {@code Exit_status} add: deleted
     * (substate 91) is CANCELLED; moved (94) UNKNOWN; otherwise the exit status decides
     * ({@link PbsExitStatus#jobState()}), and a finished job without one never ran: FAILED when PBS says it failed
     * (93), CANCELLED otherwise (deleted while queued). The other letters are what they are.
     */
    public JobState jobState(OptionalInt substate, Optional<PbsExitStatus> exitStatus) {
        if (this != FINISHED && this != EXPIRED) {
            return jobState;
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
        String letter = text.strip();
        if (letter.length() != 1) {
            return Optional.empty();
        }
        return Arrays.stream(values()).filter(s -> s.letter == letter.charAt(0)).findFirst();
    }
}
