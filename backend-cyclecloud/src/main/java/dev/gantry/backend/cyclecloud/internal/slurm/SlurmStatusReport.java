package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.cyclecloud.internal.StateKind;
import dev.gantry.backend.cyclecloud.internal.login.JobRecords;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns what one status command printed ({@code status.sh}: the job directories' records, one {@code squeue}, and
 * the completion log for jobs Slurm forgot) into each job's {@link JobStatus}: a pure function with golden tests.
 *
 * <p>Which source wins: Slurm's own state while squeue lists the job (it knows requeues, cancellations, time
 * limits and node failures); then the job's {@code exit} record, written by its batch script when its ranks ended;
 * then the completion log's last line for the job. A job that left none of them is UNKNOWN, with a message that
 * says why and what to configure. Evictions are Slurm's restart count: each requeue is one.
 */
public final class SlurmStatusReport {
    /** squeue's fields, in the order status.sh asks for them (times in UTC: it runs squeue with TZ=UTC). */
    private static final int ID = 0;
    private static final int STATE = 1;
    private static final int REASON = 2;
    private static final int RESTARTS = 3;
    private static final int START = 4;
    private static final int END = 5;
    private static final int COMMENT = 6;

    private SlurmStatusReport() {
    }

    /**
     * Every asked job's status.
     *
     * @param output what status.sh printed
     * @param now the time to report evictions at when Slurm gives none
     */
    public static Map<String, JobStatus> parse(String output, Instant now) {
        Map<String, JobRecords> records = new LinkedHashMap<>();
        Map<String, String[]> queue = new HashMap<>();
        Map<String, Map<String, String>> completions = new HashMap<>();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("J\t")) {
                JobRecords r = JobRecords.parse(line.substring(2).split("\t", -1));
                records.put(r.jobId(), r);
            } else if (line.startsWith("Q\t")) {
                String[] fields = line.substring(2).split("\\|", -1);
                if (fields.length > COMMENT) {
                    queue.put(fields[ID].strip(), fields);
                }
            } else if (line.startsWith("E\t")) {
                // Without squeue's answer no job's state is known: the poll fails, and the next one asks again.
                throw new GantryException(ErrorCode.REMOTE_ERROR, line.substring(2).strip() + "; is slurmctld up? "
                        + "Gantry asks again at the next poll");
            } else if (line.startsWith("C\t")) {
                Map<String, String> values = keyValues(line.substring(2));
                // A task of a job array is ARRAY_TASK, as its job's record has it.
                String id = values.containsKey("ArrayJobId") && values.containsKey("ArrayTaskId")
                        ? values.get("ArrayJobId") + "_" + values.get("ArrayTaskId") : values.get("JobId");
                if (id != null) {
                    completions.put(id, values);
                }
            }
        }
        Map<String, JobStatus> statuses = new LinkedHashMap<>();
        for (JobRecords r : records.values()) {
            statuses.put(r.jobId(), status(r, r.schedulerId().map(queue::get), r.schedulerId().map(completions::get),
                    now));
        }
        return statuses;
    }

    static JobStatus status(JobRecords r, Optional<String[]> queued, Optional<Map<String, String>> completed,
                            Instant now) {
        if (!r.exists()) {
            return JobStatus.of(JobState.UNKNOWN, "no job " + r.jobId() + " in the cluster's work directory");
        }
        if (r.schedulerId().isEmpty()) {
            // A cancel that came before sbatch makes submit.sh submit nothing: no id ever follows.
            return r.cancelled() ? JobStatus.of(JobState.CANCELLED, "cancelled before it was submitted to Slurm")
                    : JobStatus.of(JobState.PENDING, "being submitted: no Slurm job id is recorded yet");
        }
        String slurmId = r.schedulerId().get();
        Optional<Instant> started = r.started().map(JobRecords.Run::at);
        if (queued.isPresent()) {
            return fromQueue(r, slurmId, queued.get(), started, now);
        }
        if (r.exit().isPresent()) {
            JobRecords.Exit exit = r.exit().get();
            int evictions = Math.max(exit.run(), r.started().map(JobRecords.Run::number).orElse(0));
            JobStatus ended = r.cancelled() && exit.code() != 0
                    ? new JobStatus(JobState.CANCELLED, OptionalInt.of(exit.code()), "cancelled (Slurm job "
                    + slurmId + ")", started, Optional.of(exit.at()))
                    : ended(exit.code(), slurmId, r.failure(), started, Optional.of(exit.at()));
            return withRequeues(ended, evictions, started.orElse(now));
        }
        if (completed.isPresent()) {
            return fromCompletion(r, slurmId, completed.get(), started, now);
        }
        if (r.cancelled()) {
            return new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled (Slurm job " + slurmId + ")",
                    started, Optional.empty());
        }
        return JobStatus.of(JobState.UNKNOWN, "Slurm no longer lists its job " + slurmId + " (past MinJobAge) and "
                + "the job left no exit record; set backends.cyclecloud.jobCompLog to Slurm's JobCompLoc "
                + "(jobcomp/filetxt) so that ended jobs stay known");
    }

    private static JobStatus fromQueue(JobRecords r, String slurmId, String[] q, Optional<Instant> started,
                                       Instant now) {
        Optional<SlurmState> parsed = SlurmState.parse(q[STATE]);
        String reason = q[REASON].strip();
        int restarts = parseInt(q[RESTARTS]).orElse(0);
        Optional<Instant> end = utc(q[END]);
        if (parsed.isEmpty()) {
            return JobStatus.of(JobState.UNKNOWN, "Slurm job " + slurmId + " is in state '" + q[STATE].strip()
                    + "', which this version of Gantry does not know");
        }
        SlurmState state = parsed.get();
        // While a job waits, squeue's StartTime is only when Slurm expects to start it.
        Optional<Instant> start = state.kind() == StateKind.WAITING || state.kind() == StateKind.REQUEUED
                ? started : utc(q[START]).or(() -> started);
        String because = reason.isEmpty() || reason.equals("None") ? "" : " (" + reason + ")";
        JobStatus status;
        switch (state.kind()) {
            case DONE -> {
                if (state == SlurmState.COMPLETED || state == SlurmState.FAILED) {
                    int code = r.exit().map(JobRecords.Exit::code).orElse(state == SlurmState.COMPLETED ? 0 : 1);
                    status = ended(code, slurmId, r.failure(), start, end.or(() -> r.exit().map(JobRecords.Exit::at)));
                } else if (state == SlurmState.CANCELLED && reason.startsWith("Dependency")) {
                    status = new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled by Slurm: its "
                            + "dependency can never be satisfied (" + dependencies(q[COMMENT]) + " did not end as "
                            + "required)", start, end);
                } else {
                    status = new JobStatus(state.jobState(), r.exit().map(e -> OptionalInt.of(e.code()))
                            .orElse(OptionalInt.empty()), "Slurm job " + slurmId + " " + state.meaning() + because,
                            start, end);
                }
            }
            case EVICTED -> status = new JobStatus(JobState.PREEMPTED, OptionalInt.empty(), "Slurm job " + slurmId
                    + " " + state.meaning() + because, start, end);
            default -> status = new JobStatus(state.jobState(), OptionalInt.empty(), "Slurm job " + slurmId + " "
                    + state.meaning() + because, start, Optional.empty());
        }
        int evictions = restarts + (state.kind() == StateKind.EVICTED ? 1 : 0);
        if (state.kind() == StateKind.REQUEUED) {
            evictions = Math.max(evictions, 1);
        }
        return withRequeues(status, evictions, started.orElse(now));
    }

    private static JobStatus fromCompletion(JobRecords r, String slurmId, Map<String, String> values,
                                            Optional<Instant> started, Instant now) {
        Optional<SlurmState> state = SlurmState.parse(values.getOrDefault("JobState", ""));
        OptionalInt code = exitCode(values.getOrDefault("ExitCode", ""));
        Optional<Instant> end = utc(values.getOrDefault("EndTime", ""));
        if (state.isEmpty()) {
            return JobStatus.of(JobState.UNKNOWN, "Slurm's completion log says job " + slurmId + " is '"
                    + values.get("JobState") + "'");
        }
        JobStatus status = state.get() == SlurmState.COMPLETED || state.get() == SlurmState.FAILED
                ? ended(code.orElse(state.get() == SlurmState.COMPLETED ? 0 : 1), slurmId, r.failure(), started,
                end)
                : new JobStatus(state.get().jobState(), state.get().kind() == StateKind.EVICTED
                ? OptionalInt.empty() : code, "Slurm job " + slurmId + " " + state.get().meaning()
                + " (from Slurm's completion log)", started, end);
        int evictions = r.started().map(JobRecords.Run::number).orElse(0)
                + (state.get().kind() == StateKind.EVICTED ? 1 : 0);
        return withRequeues(status, evictions, started.orElse(now));
    }

    private static JobStatus ended(int code, String slurmId, Optional<String> failure, Optional<Instant> started,
                                   Optional<Instant> end) {
        if (code == 0) {
            return new JobStatus(JobState.SUCCEEDED, OptionalInt.of(0), "completed (Slurm job " + slurmId + ")",
                    started, end);
        }
        String why = failure.map(f -> f.replaceFirst("^gantry: ", "")).orElse("exited with code " + code);
        return new JobStatus(JobState.FAILED, OptionalInt.of(code), why + " (Slurm job " + slurmId + ")", started,
                end);
    }

    private static JobStatus withRequeues(JobStatus status, int evictions, Instant at) {
        if (evictions <= 0) {
            return status;
        }
        String reason = status.state() == JobState.PREEMPTED ? status.message()
                : "Slurm requeued the job after its node failed or it was preempted (" + evictions + " time"
                + (evictions == 1 ? "" : "s") + ")";
        return status.withEvictions(evictions, Optional.of(new Eviction(at, reason)));
    }

    /** {@code key=value} words of a completion log line (values hold no blanks there). */
    static Map<String, String> keyValues(String line) {
        Map<String, String> values = new HashMap<>();
        for (String word : line.strip().split(" +")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                values.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return values;
    }

    /** Slurm's {@code CODE:SIGNAL}: the code, or 128 + the signal when a signal ended it. */
    static OptionalInt exitCode(String text) {
        String[] parts = text.split(":");
        OptionalInt code = parseIntOpt(parts[0]);
        OptionalInt signal = parts.length > 1 ? parseIntOpt(parts[1]) : OptionalInt.empty();
        if (signal.isPresent() && signal.getAsInt() > 0) {
            return OptionalInt.of(128 + signal.getAsInt());
        }
        return code;
    }

    private static String dependencies(String comment) {
        String c = comment.strip();
        return c.startsWith(SlurmJobComment.DEPENDS) ? c.substring(SlurmJobComment.DEPENDS.length())
                : "a job it depends on";
    }

    private static Optional<Instant> utc(String text) {
        String t = text.strip();
        if (t.isEmpty() || !Character.isDigit(t.charAt(0))) {
            return Optional.empty(); // N/A, Unknown, NONE
        }
        try {
            return Optional.of(LocalDateTime.parse(t).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<Integer> parseInt(String text) {
        OptionalInt value = parseIntOpt(text);
        return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
    }

    private static OptionalInt parseIntOpt(String text) {
        try {
            return OptionalInt.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** For tests: the statuses of the given lines. */
    static Map<String, JobStatus> parse(List<String> lines, Instant now) {
        return parse(String.join("\n", lines), now);
    }
}
