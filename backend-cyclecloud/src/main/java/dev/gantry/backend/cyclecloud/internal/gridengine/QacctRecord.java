package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.backend.JobState;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a job as {@code qacct -j ID} reports it, from Grid Engine's accounting file: where it ran, when, and how
 * it ended ({@code failed}, Grid Engine's own reason, and {@code exit_status}, the job's). A job that ran more than
 * once (rescheduled after a lost host or {@code qmod -rj}) has one block per run, the earlier ones with
 * {@code failed 25 : rescheduling}; {@link #latest} is the last. An array job has a block per task
 * ({@link #taskId()}).
 *
 * <p>The parser reads qacct's text as Son of Grid Engine 8.1.9 prints it (a line of {@code =} before each block, one
 * {@code name value} field a line, {@code -/-} for a time never reached, the epoch for a time not kept (the
 * {@code qsub_time} of a reschedule's record), {@code undefined} for no task), and its one
 * answer that is not a block, {@code error: job id N not found}, which is an empty list: the job has no accounting
 * record (yet). Any other text is refused with a message. Times are in the qmaster host's time zone and locale; the
 * caller runs qacct with {@code LC_ALL=C}, whose month and day names these are.
 *
 * @param queue the cluster queue it ran in ({@code qname})
 * @param hostname the host it ran on (the master host of a parallel job)
 * @param owner the user it ran as
 * @param jobName the job's name
 * @param jobNumber the job number
 * @param taskId the array task; empty for a job that is not an array
 * @param submitTime when it was submitted ({@code qsub_time}); empty in a reschedule's record, which keeps none
 * @param startTime when this run started; empty if it never did
 * @param endTime when this run ended; empty if it never started
 * @param parallelEnvironment the parallel environment granted, if any
 * @param slots the slots it held
 * @param failedCode Grid Engine's reason code ({@code failed}); 0 for none
 * @param failedText qacct's description of it ({@code assumedly after job}); empty for 0
 * @param exitStatus the job's exit status; 128 + N when a signal N ended it
 */
public record QacctRecord(String queue, String hostname, String owner, String jobName, String jobNumber,
                          OptionalInt taskId, Optional<LocalDateTime> submitTime, Optional<LocalDateTime> startTime,
                          Optional<LocalDateTime> endTime, Optional<String> parallelEnvironment, int slots,
                          int failedCode, String failedText, int exitStatus) {
    private static final Pattern SEPARATOR = Pattern.compile("=+");
    private static final Pattern NOT_FOUND = Pattern.compile("error: job (id|name) \\S+ not found");
    private static final Pattern FIELD = Pattern.compile("(\\S+)(?:\\s+(.*?))?\\s*");
    /** {@code 100 : assumedly after job}, {@code 25  : rescheduling}, {@code 0}. */
    private static final Pattern FAILED = Pattern.compile("(\\d+)(?:\\s*:\\s*(.*))?");
    /** {@code 137                  (Killed)}, {@code 3}. */
    private static final Pattern EXIT_STATUS = Pattern.compile("(-?\\d+)(?:\\s+\\(.*\\))?");
    /** ctime(3) as qacct prints it: {@code Wed Dec  2 01:59:31 2026}. */
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.ROOT);
    private static final String[] REQUIRED = {"qname", "hostname", "owner", "jobname", "jobnumber", "taskid",
        "slots", "failed", "exit_status"};

    /** Every block of qacct's answer, in the order printed; empty only for "job id N not found". */
    public static List<QacctRecord> parse(String output) {
        String text = output.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("qacct printed nothing; expected accounting blocks or "
                    + "'error: job id N not found'");
        }
        if (NOT_FOUND.matcher(text).matches()) {
            return List.of();
        }
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> block = null;
        int lineNumber = 0;
        for (String line : text.split("\\R")) {
            lineNumber++;
            if (SEPARATOR.matcher(line.strip()).matches()) {
                block = new LinkedHashMap<>();
                blocks.add(block);
                continue;
            }
            if (block == null) {
                throw new IllegalArgumentException("qacct's answer does not start with a line of '=': '"
                        + firstLine(text) + "'");
            }
            if (line.isBlank()) {
                continue;
            }
            Matcher field = FIELD.matcher(line);
            if (!field.matches()) {
                throw new IllegalArgumentException("qacct line " + lineNumber + " is not 'name value': '" + line + "'");
            }
            block.put(field.group(1), field.group(2) == null ? "" : field.group(2));
        }
        List<QacctRecord> records = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            records.add(record(blocks.get(i), i + 1));
        }
        return List.copyOf(records);
    }

    /** The last block: a rescheduled job's final run (for an array job, of the last task printed). */
    public static Optional<QacctRecord> latest(String output) {
        List<QacctRecord> records = parse(output);
        return records.isEmpty() ? Optional.empty() : Optional.of(records.get(records.size() - 1));
    }

    /** How many of these runs ended so that the job ran again: the job's reschedules, its evictions on Spot. */
    public static int reschedules(List<QacctRecord> records) {
        return (int) records.stream().filter(QacctRecord::isReschedule).count();
    }

    /** sge_status(5)'s entry for {@link #failedCode()}; empty for a code it does not list. */
    public Optional<QacctFailure> failure() {
        return QacctFailure.of(failedCode);
    }

    /** Whether this run ended with the job rescheduled (or migrated), to run again. */
    public boolean isReschedule() {
        return failure().map(f -> f.stage() == QacctFailure.Stage.REQUEUED).orElse(false);
    }

    /** The signal that ended the job, from the shell convention 128 + N; empty if it exited by itself. */
    public OptionalInt signal() {
        return exitStatus > 128 && exitStatus < 128 + 65 ? OptionalInt.of(exitStatus - 128) : OptionalInt.empty();
    }

    /**
     * How this run ended for Gantry. A reschedule is not an end: PENDING, the job runs again. Killed runs
     * ({@code failed 100} or {@code 17}) are FAILED, though qacct cannot tell a qdel from the OOM killer or a lost
     * host: a caller that cancelled the job, or knows its host was evicted, says CANCELLED or PREEMPTED instead.
     */
    public JobState endState() {
        if (failedCode == 0) {
            return exitStatus == 0 ? JobState.SUCCEEDED : JobState.FAILED;
        }
        return isReschedule() ? JobState.PENDING : JobState.FAILED;
    }

    /** What the end means for the user, for status messages. */
    public String meaning() {
        if (failedCode == 0) {
            return exitStatus == 0 ? "succeeded" : signal().isPresent() ? "killed by signal " + signal().getAsInt()
                    + " (exit status " + exitStatus + ")" : "exited with " + exitStatus;
        }
        String reason = failure().map(QacctFailure::description).orElse(failedText);
        if (failedCode == QacctFailure.QMASTER_ENFORCED_LIMIT.code()) {
            reason += "; raise the limit or checkpoint";
        }
        String signal = signal().isPresent() ? ", signal " + signal().getAsInt() : "";
        return "failed " + failedCode + ": " + reason + " (exit status " + exitStatus + signal + ")";
    }

    private static QacctRecord record(Map<String, String> fields, int block) {
        for (String name : REQUIRED) {
            if (!fields.containsKey(name)) {
                throw new IllegalArgumentException("qacct block " + block + " has no '" + name + "' field");
            }
        }
        Matcher failed = FAILED.matcher(fields.get("failed"));
        if (!failed.matches()) {
            throw new IllegalArgumentException("qacct block " + block + ": failed '" + fields.get("failed")
                    + "' is not 'code : description'");
        }
        Matcher exit = EXIT_STATUS.matcher(fields.get("exit_status"));
        if (!exit.matches()) {
            throw new IllegalArgumentException("qacct block " + block + ": exit_status '" + fields.get("exit_status")
                    + "' is not a number");
        }
        String jobNumber = fields.get("jobnumber");
        if (!jobNumber.matches("[0-9]+")) {
            throw new IllegalArgumentException("qacct block " + block + ": jobnumber '" + jobNumber
                    + "' is not a number");
        }
        return new QacctRecord(fields.get("qname"), fields.get("hostname"), fields.get("owner"),
                fields.get("jobname"), jobNumber, task(fields.get("taskid"), block),
                time(fields, "qsub_time", block), time(fields, "start_time", block), time(fields, "end_time", block),
                Optional.ofNullable(fields.get("granted_pe")).filter(pe -> !pe.isEmpty() && !pe.equals("NONE")),
                number(fields, "slots", block), Integer.parseInt(failed.group(1)),
                failed.group(2) == null ? "" : failed.group(2).strip(), Integer.parseInt(exit.group(1)));
    }

    private static OptionalInt task(String value, int block) {
        if (value.equals("undefined")) {
            return OptionalInt.empty();
        }
        if (!value.matches("[0-9]+")) {
            throw new IllegalArgumentException("qacct block " + block + ": taskid '" + value + "' is neither a "
                    + "number nor 'undefined'");
        }
        return OptionalInt.of(Integer.parseInt(value));
    }

    private static int number(Map<String, String> fields, String name, int block) {
        String value = fields.get(name);
        if (!value.matches("[0-9]+")) {
            throw new IllegalArgumentException("qacct block " + block + ": " + name + " '" + value
                    + "' is not a number");
        }
        return Integer.parseInt(value);
    }

    private static Optional<LocalDateTime> time(Map<String, String> fields, String name, int block) {
        String value = fields.get(name);
        // A run that never started prints -/- for its times (a rescheduled or a failed-to-start run).
        if (value == null || value.equals("-/-")) {
            return Optional.empty();
        }
        try {
            LocalDateTime time = LocalDateTime.parse(value, CTIME);
            // A rescheduled run's record carries qsub_time 0, the epoch in the qmaster's zone (1969 west of UTC).
            return time.getYear() <= 1970 ? Optional.empty() : Optional.of(time);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("qacct block " + block + ": " + name + " '" + value + "' is not a "
                    + "time like 'Wed Dec  2 01:59:31 2026' (run qacct with LC_ALL=C)", e);
        }
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
