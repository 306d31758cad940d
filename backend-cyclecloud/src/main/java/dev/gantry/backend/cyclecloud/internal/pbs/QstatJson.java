package dev.gantry.backend.cyclecloud.internal.pbs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gantry.api.backend.JobState;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The jobs in {@code qstat -f -F json} (and {@code qstat -fx -F json}, which adds finished jobs) of PBS Professional
 * / OpenPBS: an object with {@code timestamp}, {@code pbs_version} and {@code pbs_server}, then {@code Jobs}, one
 * object per job id with its attributes (qstat(1B), pbs_job_attributes(7B)). A server with no jobs to show prints no
 * {@code Jobs} at all, the one answer that is an empty list; anything else that is not such an object is refused
 * with a message, never read as "no jobs".
 *
 * <p>PBS's JSON has known defects, read here as far as they are documented:
 * <ul>
 * <li>a value of digits is printed as a number, leading zeros kept ({@code "foo":005}, openpbs#1255): read, and any
 * attribute is taken as text whether printed as a number or a string (releases built on cJSON print {@code 007}
 * as {@code 7}, so such a job name does not come back as given; Gantry's names start with a letter);</li>
 * <li>environment values escaped PBS's way, {@code \'} and {@code \,} (openpbs#2049, fixed in 2020): read as the
 * character;</li>
 * <li>{@code BASH_FUNC_} variables of {@code qsub -V} jobs not escaped (openpbs#2541, cyclecloud-pbspro#43): raw
 * control characters are read; a raw double quote cannot be, and the answer is refused (Gantry never submits
 * with {@code -V}, but another user's job can break the answer of {@code qstat -f} for all jobs);</li>
 * <li>a repeated key (openpbs#2677): the last one counts;</li>
 * <li>text in front of the JSON when {@code -F json} is combined with {@code -u}, {@code -a} or {@code -n}
 * (openpbs#2675): refused, since the JSON then lacks the jobs.</li>
 * </ul>
 * Release 23.06 and later print only the first job when given several ids (openpbs#2672): the caller asks for all of
 * the server's jobs and picks its own.
 */
public final class QstatJson {
    /** {@code 123.server}, {@code 123[].server} (a job array), {@code 123[4].server} (a subjob), or no server. */
    private static final Pattern JOB_ID = Pattern.compile("[0-9]+(\\[[0-9]*\\])?(\\.[A-Za-z0-9.-]+)?");
    /** ctime(3), as qstat prints times: {@code Fri Jul  1 14:42:57 2022}. */
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.ROOT);
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * The answer.
     *
     * @param timestamp when qstat ran, in seconds since the epoch
     * @param pbsVersion the server's version ({@code 23.06.06}, {@code 2022.1.1.20220926110806})
     * @param pbsServer the server's host name
     * @param jobs the jobs, in the order printed
     */
    public record Answer(long timestamp, String pbsVersion, String pbsServer, List<Job> jobs) {
        public Answer {
            jobs = List.copyOf(jobs);
        }

        /** The job with this id, if the answer holds it. */
        public Optional<Job> job(String id) {
            return jobs.stream().filter(j -> j.id().equals(id)).findFirst();
        }
    }

    /**
     * One job.
     *
     * @param id the job id ({@code 123.server})
     * @param name {@code Job_Name}
     * @param owner {@code Job_Owner} ({@code user@host}), if shown
     * @param stateLetter {@code job_state} as printed; see {@link #state()}
     * @param substate {@code substate}, if shown
     * @param queue {@code queue}, if shown
     * @param exitStatus {@code Exit_status}, once the job has ended (or was requeued)
     * @param runCount {@code run_count}: how many times PBS has started the job; 0 if not shown
     * @param startTime {@code stime}, when it last started, in the server's local time
     * @param account {@code Account_Name}, if set
     * @param comment {@code comment}, the scheduler's or an operator's word on it, if any
     */
    public record Job(String id, String name, Optional<String> owner, String stateLetter, OptionalInt substate,
                      Optional<String> queue, Optional<PbsExitStatus> exitStatus, int runCount,
                      Optional<LocalDateTime> startTime, Optional<String> account, Optional<String> comment) {
        /** The state letter read; empty for one {@link PbsState} does not know. */
        public Optional<PbsState> state() {
            return PbsState.parse(stateLetter);
        }

        /** How the job stands for Gantry; UNKNOWN for a state letter this table does not know. */
        public JobState jobState() {
            return state().map(s -> s.jobState(substate, exitStatus)).orElse(JobState.UNKNOWN);
        }

        /**
         * How many times PBS requeued the job after it had started (its evictions on Spot): {@code run_count} counts
         * starts, so a job waiting again after one start was requeued once, and a running or finished one
         * {@code run_count - 1} times.
         */
        public int requeues() {
            boolean pending = state().map(PbsState::isPending).orElse(false);
            return Math.max(0, pending ? runCount : runCount - 1);
        }
    }

    private QstatJson() {
    }

    public static Answer parse(String json) {
        if (json.isBlank()) {
            throw new IllegalArgumentException("qstat -F json printed nothing; expected a JSON object");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            String start = json.strip().lines().findFirst().orElse("");
            String hint = json.strip().startsWith("{") ? ""
                    : " (text before the JSON: do not combine -F json with -u, -a or -n, openpbs#2675)";
            throw new IllegalArgumentException("qstat -F json's answer is not JSON PBS is known to print ("
                    + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + "); it starts '" + start + "'" + hint, e);
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("qstat -F json's answer is not a JSON object: " + root.getNodeType());
        }
        long timestamp = root.path("timestamp").asLong(-1);
        if (!root.path("timestamp").canConvertToLong() || timestamp < 0) {
            throw new IllegalArgumentException("qstat -F json's answer has no timestamp: it is not qstat's");
        }
        String version = text(root, "pbs_version").orElseThrow(() -> new IllegalArgumentException(
                "qstat -F json's answer has no pbs_version: it is not qstat's"));
        String server = text(root, "pbs_server").orElseThrow(() -> new IllegalArgumentException(
                "qstat -F json's answer has no pbs_server: it is not qstat's"));
        JsonNode jobs = root.path("Jobs");
        if (jobs.isMissingNode()) {
            return new Answer(timestamp, version, server, List.of());
        }
        if (!jobs.isObject()) {
            throw new IllegalArgumentException("qstat -F json's Jobs is not an object: " + jobs.getNodeType());
        }
        List<Job> parsed = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : jobs.properties()) {
            parsed.add(job(entry.getKey(), entry.getValue()));
        }
        return new Answer(timestamp, version, server, parsed);
    }

    private static Job job(String id, JsonNode job) {
        if (!JOB_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("qstat -F json: '" + id + "' is not a PBS job id");
        }
        if (!job.isObject()) {
            throw new IllegalArgumentException("qstat -F json: job " + id + " is not an object");
        }
        String name = text(job, "Job_Name").orElseThrow(() -> new IllegalArgumentException("qstat -F json: job "
                + id + " has no Job_Name"));
        String state = text(job, "job_state").orElseThrow(() -> new IllegalArgumentException("qstat -F json: job "
                + id + " has no job_state"));
        OptionalInt substate = integer(job, "substate", id);
        OptionalInt exit = integer(job, "Exit_status", id);
        int runCount = integer(job, "run_count", id).orElse(0);
        if (runCount < 0) {
            throw new IllegalArgumentException("qstat -F json: job " + id + " has run_count " + runCount);
        }
        return new Job(id, name, text(job, "Job_Owner"), state, substate, text(job, "queue"),
                exit.isPresent() ? Optional.of(new PbsExitStatus(exit.getAsInt())) : Optional.empty(), runCount,
                time(job, "stime", id), text(job, "Account_Name"), text(job, "comment"));
    }

    /** An attribute as text, whether PBS printed it as a string or (digits only) as a number. */
    private static Optional<String> text(JsonNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull() || value.isContainerNode()) {
            return Optional.empty();
        }
        String text = value.asText().strip();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    private static OptionalInt integer(JsonNode job, String name, String id) {
        Optional<String> text = text(job, name);
        if (text.isEmpty()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(text.get()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("qstat -F json: job " + id + " has " + name + " '" + text.get()
                    + "', not a whole number", e);
        }
    }

    private static Optional<LocalDateTime> time(JsonNode job, String name, String id) {
        return text(job, name).map(text -> {
            try {
                return LocalDateTime.parse(text, CTIME);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("qstat -F json: job " + id + " has " + name + " '" + text
                        + "', not a time like 'Fri Jul  1 14:42:57 2022'", e);
            }
        });
    }
}
