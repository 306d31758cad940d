package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.cyclecloud.internal.login.JobRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns what one status command printed ({@code status.sh}: the job directories' records, one {@code qstat -xml},
 * and the accounting of jobs that ended without their script's own end) into each job's {@link JobStatus}: a pure
 * function with golden tests.
 *
 * <p>Which source wins: Grid Engine's state while qstat lists the job (pending, held by {@code -hold_jid},
 * requeued after a reschedule, running, in error, being deleted); then the job's {@code exit} record, written by
 * its script when its rank ended (with {@code unsatisfied} when a dependency it needed to succeed did not); then
 * qacct's record, for a job killed before its script could write one: a dead shepherd (its host crashed or
 * vanished, as a Spot VM does) is an eviction, PREEMPTED; a signal or a limit is a failure, or a cancel when Gantry
 * cancelled it. Reruns are counted from the job's own {@code started} records.
 */
public final class GridEngineStatusReport {
    private GridEngineStatusReport() {
    }

    /**
     * Every asked job's status.
     *
     * @param output what status.sh printed
     * @param now the time to report evictions at when nothing else says when
     */
    public static Map<String, JobStatus> parse(String output, Instant now) {
        Map<String, JobRecords> records = new LinkedHashMap<>();
        Map<String, StringBuilder> accounting = new HashMap<>();
        StringBuilder xml = new StringBuilder();
        boolean inXml = false;
        boolean queueKnown = false;
        for (String line : output.split("\n", -1)) {
            if (inXml) {
                if (line.equals("=end-qstat")) {
                    inXml = false;
                    queueKnown = true;
                } else {
                    xml.append(line).append('\n');
                }
            } else if (line.equals("=qstat")) {
                inXml = true;
            } else if (line.startsWith("J\t")) {
                JobRecords r = JobRecords.parse(line.substring(2).split("\t", -1));
                records.put(r.jobId(), r);
            } else if (line.startsWith("A\t")) {
                String[] f = line.split("\t", 3);
                accounting.computeIfAbsent(f[1], k -> new StringBuilder()).append(f.length > 2 ? f[2] : "")
                        .append('\n');
            } else if (line.startsWith("E\t")) {
                // Without qstat's answer no job's state is known: the poll fails, and the next one asks again.
                throw new GantryException(ErrorCode.REMOTE_ERROR, line.substring(2).strip() + "; is sge_qmaster "
                        + "up? Gantry asks again at the next poll");
            }
        }
        Map<String, List<QstatXml.Job>> queue = !queueKnown ? Map.of()
                : QstatXml.byJobNumber(QstatXml.parse(xml.toString()));
        Map<String, JobStatus> statuses = new LinkedHashMap<>();
        for (JobRecords r : records.values()) {
            Optional<List<QacctRecord>> runs = r.schedulerId().map(accounting::get).map(a -> QacctRecord.parse(
                    a.toString()));
            statuses.put(r.jobId(), status(r, r.schedulerId().map(queue::get).filter(l -> !l.isEmpty())
                    .map(l -> l.get(0)), runs.orElse(List.of()), now));
        }
        return statuses;
    }

    static JobStatus status(JobRecords r, Optional<QstatXml.Job> queued, List<QacctRecord> accounting, Instant now) {
        if (!r.exists()) {
            return JobStatus.of(JobState.UNKNOWN, "no job " + r.jobId() + " in the cluster's work directory");
        }
        if (r.schedulerId().isEmpty()) {
            return r.cancelled() ? JobStatus.of(JobState.CANCELLED, "cancelled before it was submitted to Grid "
                    + "Engine") : JobStatus.of(JobState.PENDING, "being submitted: no Grid Engine job number is "
                    + "recorded yet");
        }
        String number = r.schedulerId().get();
        Optional<Instant> started = r.started().map(JobRecords.Run::at);
        int reruns = r.runs();
        if (queued.isPresent()) {
            // R stays on a job once it was rescheduled, pending (Rq) and running again (Rr) alike: its first
            // eviction counts from the moment R shows, before the rerun records its start; a later one when its
            // rerun records it. Counting a pending Rq as one more would fall back between the rerun's dispatch
            // and its record, and a count must never fall.
            boolean restarted = queued.get().state().map(GridEngineState::restarted).orElse(false);
            return withReruns(fromQueue(r, number, queued.get(), started), Math.max(reruns, restarted ? 1 : 0),
                    started.orElse(now));
        }
        if (r.exit().isPresent()) {
            JobRecords.Exit exit = r.exit().get();
            JobStatus ended;
            if (r.unsatisfied().isPresent()) {
                ended = new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "never ran: " + unsatisfied(
                        r.unsatisfied().get()), started, Optional.of(exit.at()));
            } else if (r.cancelled() && exit.code() != 0) {
                ended = new JobStatus(JobState.CANCELLED, OptionalInt.of(exit.code()), "cancelled (Grid Engine job "
                        + number + ")", started, Optional.of(exit.at()));
            } else if (exit.code() == 0) {
                ended = new JobStatus(JobState.SUCCEEDED, OptionalInt.of(0), "completed (Grid Engine job " + number
                        + ")", started, Optional.of(exit.at()));
            } else {
                String why = r.failure().map(f -> f.replaceFirst("^gantry: ", "")).orElse("exited with code "
                        + exit.code());
                ended = new JobStatus(JobState.FAILED, OptionalInt.of(exit.code()), why + " (Grid Engine job "
                        + number + ")", started, Optional.of(exit.at()));
            }
            return withReruns(ended, reruns, started.orElse(now));
        }
        if (!accounting.isEmpty()) {
            return fromAccounting(r, number, accounting.get(accounting.size() - 1), started, reruns, now);
        }
        if (r.cancelled()) {
            return new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled (Grid Engine job " + number
                    + ")", started, Optional.empty());
        }
        // Between leaving qstat and its accounting record being written: a moment, not a state.
        return new JobStatus(started.isPresent() ? JobState.RUNNING : JobState.PENDING, OptionalInt.empty(),
                "Grid Engine job " + number + " has left the queue; its accounting record is not written yet",
                started, Optional.empty());
    }

    private static JobStatus fromQueue(JobRecords r, String number, QstatXml.Job job, Optional<Instant> started) {
        Optional<GridEngineState> parsed = job.state();
        if (parsed.isEmpty()) {
            return JobStatus.of(JobState.UNKNOWN, "Grid Engine job " + number + " is in state '"
                    + job.stateLetters() + "', which this version of Gantry does not know");
        }
        GridEngineState state = parsed.get();
        String meaning = "Grid Engine job " + number + " " + state.meaning(number);
        if (r.cancelled() || state.has(GridEngineState.Flag.DELETING)) {
            return new JobStatus(JobState.CANCELLED, OptionalInt.empty(), r.cancelled() ? "cancelled (Grid Engine "
                    + "job " + number + " is being deleted)" : meaning, started, Optional.empty());
        }
        JobState jobState = state.jobState();
        if (jobState == JobState.UNKNOWN) {
            // A zombie: ended, and its end is in its own records or qacct, which the next poll reads.
            jobState = JobState.RUNNING;
        }
        Optional<Instant> start = jobState == JobState.PENDING ? Optional.empty() : started;
        return new JobStatus(jobState, OptionalInt.empty(), meaning, start, Optional.empty());
    }

    private static JobStatus fromAccounting(JobRecords r, String number, QacctRecord last, Optional<Instant> started,
                                            int reruns, Instant now) {
        Optional<QacctFailure> failure = last.failure();
        QacctFailure.Stage stage = failure.map(QacctFailure::stage).orElse(QacctFailure.Stage.AFTER_JOB);
        String said = "Grid Engine job " + number + " " + last.meaning() + " (qacct)";
        if (r.cancelled()) {
            return withReruns(new JobStatus(JobState.CANCELLED, OptionalInt.of(last.exitStatus()), "cancelled (Grid "
                    + "Engine job " + number + ")", started, Optional.empty()), reruns, started.orElse(now));
        }
        if (stage == QacctFailure.Stage.SHEPHERD || stage == QacctFailure.Stage.REQUEUED) {
            // The job's shepherd died with it: its host crashed or went away, as an evicted Spot VM does.
            JobStatus preempted = new JobStatus(JobState.PREEMPTED, OptionalInt.empty(), "its host was lost: "
                    + said, started, Optional.empty());
            return preempted.withEvictions(reruns + 1, Optional.of(new Eviction(now, preempted.message())));
        }
        JobStatus ended;
        if (stage == QacctFailure.Stage.NONE) {
            int code = last.exitStatus();
            ended = new JobStatus(code == 0 ? JobState.SUCCEEDED : JobState.FAILED, OptionalInt.of(code), said,
                    started, Optional.empty());
        } else {
            ended = new JobStatus(JobState.FAILED, OptionalInt.of(last.exitStatus()), said, started,
                    Optional.empty());
        }
        return withReruns(ended, reruns, started.orElse(now));
    }

    /** {@code unsatisfied}'s line: the dependency's id and its exit code ({@code none} when it left none). */
    private static String unsatisfied(String line) {
        String[] words = line.strip().split(" ");
        String code = words.length > 1 ? words[1] : "none";
        return "its dependency " + words[0] + " did not succeed (" + (code.equals("none") ? "it ended without an "
                + "exit record: cancelled, killed or its host lost" : "exit code " + code) + ")";
    }

    private static JobStatus withReruns(JobStatus status, int reruns, Instant at) {
        if (reruns <= 0) {
            return status;
        }
        return status.withEvictions(reruns, Optional.of(new Eviction(at, "Grid Engine ran the job again after its "
                + "host was lost or it was rescheduled (" + reruns + " time" + (reruns == 1 ? "" : "s") + ")")));
    }

    /** For tests: the statuses of the given lines. */
    static Map<String, JobStatus> parse(List<String> lines, Instant now) {
        return parse(String.join("\n", new ArrayList<>(lines)), now);
    }
}
