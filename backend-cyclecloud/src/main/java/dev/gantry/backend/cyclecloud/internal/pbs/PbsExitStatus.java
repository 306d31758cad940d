package dev.gantry.backend.cyclecloud.internal.pbs;

import dev.gantry.api.backend.JobState;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A finished job's {@code Exit_status} read with PBS's conventions: 0 succeeded; 1 to 255 is the job's own exit
 * code (128 + N when the shell reports signal N); above 256 PBS killed the job with signal {@code status - 256}
 * (271: SIGTERM, qdel or a limit in older releases); a negative value is one of PBS's special {@code JOB_EXEC_*}
 * codes of OpenPBS {@code src/include/job.h}, set when the job could not start, was requeued or its node was lost.
 *
 * @param value the status as qstat prints it
 */
public record PbsExitStatus(int value) {
    /** What a special code says happened. */
    public enum Cause {
        /** The job could not start, or PBS gave up on it. */
        START_FAILED,
        /** Its node (the mother superior or a sister) was lost: an eviction. */
        NODE_LOST,
        /** Requeued to run again on request (qrerun, checkpoint and restart): counted as an eviction. */
        RERUN,
        /** Requeued after a start failure or by a hook, to be retried: not an eviction. */
        RETRY,
        /** Killed at a resource limit. */
        LIMIT
    }

    /** PBS's special exit values, {@code JOB_EXEC_*} of OpenPBS {@code src/include/job.h}. */
    public enum JobExec {
        FAIL1(-1, Cause.START_FAILED, "execution failed before files, no retry"),
        FAIL2(-2, Cause.START_FAILED, "execution failed after files, no retry"),
        RETRY(-3, Cause.RETRY, "execution failed, PBS retries"),
        INITABT(-4, Cause.NODE_LOST, "aborted when its MoM started again (the node restarted)"),
        INITRST(-5, Cause.NODE_LOST, "aborted when its MoM started again, checkpointed, no migration"),
        INITRMG(-6, Cause.NODE_LOST, "aborted when its MoM started again, checkpointed, may migrate"),
        BADRESRT(-7, Cause.START_FAILED, "restart from checkpoint failed"),
        FAILUID(-10, Cause.START_FAILED, "invalid user or group id for the job"),
        RERUN(-11, Cause.RERUN, "rerun (qrerun, or PBS requeued it)"),
        CHKP(-12, Cause.RERUN, "checkpointed and killed"),
        FAIL_PASSWORD(-13, Cause.START_FAILED, "bad password"),
        RERUN_SIS_FAIL(-14, Cause.NODE_LOST, "a sister node failed; rerun"),
        QUERST(-15, Cause.RERUN, "requeued to restart from its checkpoint"),
        FAILHOOK_RERUN(-16, Cause.RETRY, "a hook rejected the start; requeued for a later try"),
        FAILHOOK_DELETE(-17, Cause.START_FAILED, "a hook rejected the start; deleted"),
        HOOK_RERUN(-18, Cause.RETRY, "a hook requeued it"),
        HOOK_DELETE(-19, Cause.START_FAILED, "a hook deleted it"),
        RERUN_MS_FAIL(-20, Cause.NODE_LOST, "the connection to its mother superior failed (the node is gone); rerun"),
        FAIL_SECURITY(-21, Cause.START_FAILED, "security breach in the PBS directory"),
        HOOKERROR(-22, Cause.START_FAILED, "a hook raised an exception or timed out"),
        FAIL_KRB5(-23, Cause.START_FAILED, "no Kerberos credentials supplied"),
        KILL_NCPUS_BURST(-24, Cause.LIMIT, "killed for exceeding ncpus (burst)"),
        KILL_NCPUS_SUM(-25, Cause.LIMIT, "killed for exceeding ncpus (sum)"),
        KILL_VMEM(-26, Cause.LIMIT, "killed for exceeding vmem; ask for more memory"),
        KILL_MEM(-27, Cause.LIMIT, "killed for exceeding mem; ask for more memory"),
        KILL_CPUT(-28, Cause.LIMIT, "killed for exceeding cput"),
        KILL_WALLTIME(-29, Cause.LIMIT, "killed for exceeding walltime; raise the walltime or checkpoint"),
        JOINJOB(-30, Cause.START_FAILED, "its sister MoMs could not join the job");

        private final int code;
        private final Cause cause;
        private final String meaning;

        JobExec(int code, Cause cause, String meaning) {
            this.code = code;
            this.cause = cause;
            this.meaning = meaning;
        }

        public int code() {
            return code;
        }

        public Cause cause() {
            return cause;
        }

        public String meaning() {
            return meaning;
        }

        static Optional<JobExec> of(int code) {
            return Arrays.stream(values()).filter(e -> e.code == code).findFirst();
        }
    }

    /** The special code, for a negative status; empty otherwise and for a code job.h does not list. */
    public Optional<JobExec> special() {
        return value < 0 ? JobExec.of(value) : Optional.empty();
    }

    /** Whether PBS killed the job with a signal ({@code status > 256}). */
    public boolean killedByPbs() {
        return value > 256;
    }

    /** The signal that ended the job: PBS's (status - 256) or the shell's report (status - 128). */
    public OptionalInt signal() {
        if (killedByPbs()) {
            return OptionalInt.of(value - 256);
        }
        return value > 128 && value < 128 + 65 ? OptionalInt.of(value - 128) : OptionalInt.empty();
    }

    /** Whether the status says the job's node was lost or it was rerun: an eviction, never a failure. */
    public boolean isEviction() {
        return special().map(e -> e.cause() == Cause.NODE_LOST || e.cause() == Cause.RERUN).orElse(false);
    }

    /**
     * How a job that ended with this status ended for Gantry: SUCCEEDED for 0, PREEMPTED for a lost node or a rerun
     * that did not happen (the job was not rerunnable), FAILED otherwise. A kill by signal is FAILED too: PBS cannot
     * tell a qdel from a limit, so a caller that cancelled the job says CANCELLED.
     */
    public JobState jobState() {
        if (value == 0) {
            return JobState.SUCCEEDED;
        }
        return isEviction() ? JobState.PREEMPTED : JobState.FAILED;
    }

    /** What the status means for the user, for status messages. */
    public String meaning() {
        if (value == 0) {
            return "succeeded";
        }
        if (value < 0) {
            return special().map(e -> "PBS " + e.name() + " (" + value + "): " + e.meaning())
                    .orElse("PBS special exit status " + value);
        }
        if (killedByPbs()) {
            return "killed by PBS with signal " + signal().getAsInt() + " (qdel, a limit or preemption; Exit_status "
                    + value + ")";
        }
        return signal().isPresent() ? "killed by signal " + signal().getAsInt() + " (exit status " + value + ")"
                : "exited with " + value;
    }
}
