package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.backend.JobState;
import dev.gantry.backend.cyclecloud.internal.SchedulerState;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A job's state as qstat prints it ({@code qw}, {@code hqw}, {@code Rr}, {@code Eqw}, {@code dr}, ...): not one code
 * but a combination of letter flags, each listed by qstat(1) and combined as sge_status(5) tabulates them, mapped to
 * Gantry's {@link JobState}.
 *
 * <ul>
 * <li>{@code E}rror: the job could not start and waits in error state; FAILED, and the meaning says how to clear it
 * ({@code qmod -cj}) or delete it.</li>
 * <li>{@code d}eletion: qdel was called; the job is being cancelled.</li>
 * <li>{@code R}estarted: the job was rescheduled, by a lost host (an eviction on Spot) or {@code qmod -rj}. Pending
 * with R ({@code Rq}, {@code hRwq}) is a requeue; R stays on the job once it runs again ({@code Rr}), so a tracker
 * counts one eviction when R first appears and further ones from the job's own run records (qacct has one
 * {@link QacctFailure#RESCHEDULING} record each).</li>
 * <li>{@code s}, {@code S}, {@code T}: suspended by qmod, with its queue, or by a load threshold; still RUNNING, as
 * Slurm's SUSPENDED is.</li>
 * <li>{@code h}old, {@code q}ueued, {@code w}aiting: pending ({@code h} also covers {@code -hold_jid}).</li>
 * <li>{@code r}unning, {@code t}ransferring: running or being started.</li>
 * <li>{@code z}ombie: finished (only with {@code qstat -s z}); how it ended is in qacct.</li>
 * </ul>
 * A letter this table does not know (Univa's {@code N} and {@code P}, a newer release's) makes the whole state
 * unknown rather than guessed.
 *
 * @param letters the state as printed
 * @param flags the flags it holds
 */
public record GridEngineState(String letters, Set<Flag> flags) implements SchedulerState {
    /** One letter of a Grid Engine job state. */
    public enum Flag {
        DELETING('d'), ERROR('E'), HOLD('h'), QUEUED('q'), RESTARTED('R'), RUNNING('r'), SUSPENDED('s'),
        QUEUE_SUSPENDED('S'), TRANSFERRING('t'), THRESHOLD_SUSPENDED('T'), WAITING('w'), ZOMBIE('z');

        private final char letter;

        Flag(char letter) {
            this.letter = letter;
        }

        public char letter() {
            return letter;
        }

        static Optional<Flag> of(char letter) {
            for (Flag flag : values()) {
                if (flag.letter == letter) {
                    return Optional.of(flag);
                }
            }
            return Optional.empty();
        }
    }

    private static final Set<Flag> PENDING_FLAGS = EnumSet.of(Flag.QUEUED, Flag.WAITING);
    private static final Set<Flag> ACTIVE_FLAGS = EnumSet.of(Flag.RUNNING, Flag.TRANSFERRING, Flag.SUSPENDED,
            Flag.QUEUE_SUSPENDED, Flag.THRESHOLD_SUSPENDED);

    public GridEngineState {
        EnumSet<Flag> copy = EnumSet.noneOf(Flag.class);
        copy.addAll(flags);
        for (char letter : letters.toCharArray()) {
            if (Flag.of(letter).filter(copy::contains).isEmpty()) {
                throw new IllegalArgumentException("state '" + letters + "' does not match its flags " + copy);
            }
        }
        if (letters.length() != copy.size()) {
            throw new IllegalArgumentException("state '" + letters + "' does not match its flags " + copy);
        }
        flags = Collections.unmodifiableSet(copy);
    }

    /**
     * A state as qstat prints it, in the element {@code <state>} of {@code qstat -xml} or the "state" column. Empty
     * for text that is not a combination of known letters, each once, with at least one that says where the job is
     * (queued, waiting, running, transferring, suspended or finished).
     */
    public static Optional<GridEngineState> parse(String text) {
        String letters = text.strip();
        EnumSet<Flag> flags = EnumSet.noneOf(Flag.class);
        for (char letter : letters.toCharArray()) {
            Optional<Flag> flag = Flag.of(letter);
            if (flag.isEmpty() || !flags.add(flag.get())) {
                return Optional.empty();
            }
        }
        boolean placed = flags.contains(Flag.ZOMBIE) || flags.stream().anyMatch(f -> PENDING_FLAGS.contains(f)
                || ACTIVE_FLAGS.contains(f));
        return placed ? Optional.of(new GridEngineState(letters, flags)) : Optional.empty();
    }

    public boolean has(Flag flag) {
        return flags.contains(flag);
    }

    /** Whether the job is still to start: queued or waiting, and neither running nor suspended. */
    public boolean isPending() {
        return flags.stream().noneMatch(ACTIVE_FLAGS::contains) && !has(Flag.ZOMBIE);
    }

    /** Whether the job has been rescheduled at least once (the R flag stays until it ends). */
    public boolean restarted() {
        return has(Flag.RESTARTED);
    }

    @Override
    public JobState jobState() {
        if (has(Flag.DELETING)) {
            return JobState.CANCELLED;
        }
        if (has(Flag.ERROR)) {
            return JobState.FAILED;
        }
        if (has(Flag.ZOMBIE)) {
            // Finished, but qstat does not say how: qacct does.
            return JobState.UNKNOWN;
        }
        return isPending() ? JobState.PENDING : JobState.RUNNING;
    }

    /** Requeued: back in the queue after a reschedule (pending with R), waiting to run again; the one eviction. */
    @Override
    public StateKind kind() {
        if (has(Flag.DELETING) || has(Flag.ERROR) || has(Flag.ZOMBIE)) {
            return StateKind.DONE;
        }
        if (isPending()) {
            return restarted() ? StateKind.REQUEUED : StateKind.WAITING;
        }
        return StateKind.ACTIVE;
    }

    /** What the state means for the user, for status messages; {@code jobId} names the job in the advice. */
    public String meaning(String jobId) {
        if (has(Flag.DELETING)) {
            return "being deleted (qdel); it ends cancelled. A job that stays so has lost its host: qdel -f " + jobId;
        }
        if (has(Flag.ERROR)) {
            return "in error state: Grid Engine could not start it (the reason is in qstat -j " + jobId + "); "
                    + "fix the cause and clear the error with qmod -cj " + jobId + " to run it again, or qdel it";
        }
        if (has(Flag.ZOMBIE)) {
            return "finished; how it ended is in qacct -j " + jobId;
        }
        StringBuilder meaning = new StringBuilder();
        if (has(Flag.SUSPENDED)) {
            meaning.append("suspended (qmod -sj); it resumes where it was with qmod -usj ").append(jobId);
        } else if (has(Flag.QUEUE_SUSPENDED)) {
            meaning.append("suspended with its queue; it resumes when the queue does");
        } else if (has(Flag.THRESHOLD_SUSPENDED)) {
            meaning.append("suspended: its queue is over a load threshold; it resumes below it");
        } else if (has(Flag.TRANSFERRING)) {
            meaning.append("being started on its host");
        } else if (has(Flag.RUNNING)) {
            meaning.append("running");
        } else if (has(Flag.HOLD)) {
            meaning.append("held: waiting for the jobs it depends on (-hold_jid) or a hold (qrls ").append(jobId)
                    .append(" releases a user hold)");
        } else {
            meaning.append("waiting for a free slot");
        }
        if (restarted()) {
            meaning.append(isPending() ? "; requeued after its host was lost or it was rescheduled, it runs again"
                    : "; rerun after a reschedule");
        }
        return meaning.toString();
    }
}
