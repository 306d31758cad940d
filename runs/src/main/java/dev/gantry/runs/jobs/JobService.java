package dev.gantry.runs.jobs;

import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.core.jobs.JobStore;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Submits plans and tracks their jobs. Every remote call is bracketed by a saved record: the record exists (stage
 * SUBMITTING) before the backend is asked, and is updated with the backend's reference after, so a process killed in
 * between leaves a record whose idempotency key finds the job again instead of creating a second one.
 */
public final class JobService {
    private final JobStore store;
    private final BackendSessions backends;
    private final Clock clock;

    public JobService(JobStore store, BackendSessions backends, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.backends = Objects.requireNonNull(backends, "backends");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A fresh job id: the workload name, a UTC timestamp and a random suffix. */
    public String newJobId(String workloadName) {
        byte[] bytes = new byte[3];
        IdParts.RANDOM.nextBytes(bytes);
        return workloadName + "-" + IdParts.STAMP.format(clock.instant()) + "-" + HexFormat.of().formatHex(bytes);
    }

    /**
     * Submits the plan on the named backend under the given id (the idempotency key). Submitting an id that exists
     * returns its job: finished submissions as they are, interrupted ones by asking the backend again with the same
     * key.
     */
    public JobRecord submit(Plan plan, String backendName, String id, Optional<String> specFile) {
        return submit(plan, backendName, SubmitOptions.withKey(id), specFile);
    }

    /**
     * The same with the SPI's options in full (attempt, resume, dependencies): the job id is the options'
     * idempotency key.
     */
    public JobRecord submit(Plan plan, String backendName, SubmitOptions options, Optional<String> specFile) {
        return submitAll(List.of(new Submission(plan, options)), backendName, specFile).get(0);
    }

    /**
     * Submits many plans on the named backend in one {@link Backend#submitAll}, each under its options' idempotency
     * key, bracketed as one submit is: every record not submitted yet is saved (stage SUBMITTING) before the backend
     * is asked, all in one write, and all are saved with their backend references after it answered, in another.
     * Keys whose jobs were submitted already are returned as they are and not sent again. When the backend fails
     * part-way, the records stay SUBMITTING: submitting the same keys again returns the jobs it made and makes the
     * rest.
     *
     * @return the records, in the submissions' order
     */
    public List<JobRecord> submitAll(List<Submission> submissions, String backendName, Optional<String> specFile) {
        JobRecord[] records = new JobRecord[submissions.size()];
        List<Integer> pending = new ArrayList<>();
        List<JobEvent> intents = new ArrayList<>();
        Map<String, JobRecord> stored = store.find(submissions.stream().map(s -> s.options().idempotencyKey())
                .toList());
        for (int i = 0; i < submissions.size(); i++) {
            Plan plan = submissions.get(i).plan();
            String id = submissions.get(i).options().idempotencyKey();
            Optional<JobRecord> existing = Optional.ofNullable(stored.get(id));
            if (existing.isPresent() && (!existing.get().workload().equals(plan.workload().name())
                    || !existing.get().backend().equals(backendName))) {
                throw new GantryException(ErrorCode.USAGE, "job id '" + id + "' already belongs to workload '"
                        + existing.get().workload() + "' on backend '" + existing.get().backend() + "'; choose "
                        + "another idempotency key");
            }
            records[i] = existing.orElseGet(() -> JobRecord.submitting(id, plan.workload().name(), specFile,
                    backendName, placement(plan), clock.instant()).withLabels(plan.workload().labels()));
            if (records[i].stage() == JobRecord.Stage.SUBMITTED) {
                continue;
            }
            pending.add(i);
            intents.add(JobEvent.of(id, clock.instant(), JobEvent.SUBMITTING, (existing.isPresent()
                    ? "again, with the same key, after an interrupted submit: " : "") + "to backend '" + backendName
                    + "', " + records[i].placement()));
        }
        if (!pending.isEmpty()) {
            store.saveAll(pending.stream().map(i -> records[i]).toList(), intents);
            List<JobRef> refs = backends.backend(backendName).submitAll(pending.stream().map(submissions::get)
                    .map(JobService::withFabricEnvironment).toList());
            if (refs.size() != pending.size()) {
                // The records stay SUBMITTING: submitting the same keys again finds the jobs the backend made.
                throw new GantryException(ErrorCode.INTERNAL, "backend '" + backendName + "' answered " + refs.size()
                        + " job references for " + pending.size() + " submissions; its submitAll must answer one per "
                        + "submission, in order");
            }
            List<JobEvent> answers = new ArrayList<>(pending.size());
            for (int k = 0; k < pending.size(); k++) {
                int i = pending.get(k);
                records[i] = records[i].submitted(refs.get(k), clock.instant());
                answers.add(JobEvent.of(records[i].id(), records[i].updatedAt(), JobEvent.SUBMITTED, "backend '"
                        + backendName + "' job " + refs.get(k).id()));
            }
            store.saveAll(pending.stream().map(i -> records[i]).toList(), answers);
        }
        return List.of(records);
    }

    /**
     * The submission as every backend gets it: a plan on an InfiniBand size carries the NCCL and UCX variables
     * Microsoft documents for its family, after the workload's own, which win ({@link FabricEnvironment}). Added
     * here, the one place every submit passes, so that no backend (nor a plugin) keeps a copy of the table.
     */
    static Submission withFabricEnvironment(Submission submission) {
        Plan plan = FabricEnvironment.applyTo(submission.plan());
        return plan == submission.plan() ? submission : new Submission(plan, submission.options());
    }

    /** The record with its status refreshed from the backend when the job has not ended. */
    public JobRecord job(String id) {
        JobRecord record = store.find(id).orElseThrow(() -> notFound(id));
        return refresh(List.of(record)).get(0);
    }

    /** The record as stored, not refreshed; empty when there is none. */
    public Optional<JobRecord> find(String id) {
        return store.find(id);
    }

    /**
     * The records of these jobs that exist, in the order asked, unfinished ones refreshed with one status call per
     * backend however many there are.
     */
    public List<JobRecord> jobs(List<String> ids) {
        return refresh(stored(ids));
    }

    /** The records of these jobs that exist, in the order asked, as stored: no backend is asked. */
    public List<JobRecord> stored(List<String> ids) {
        Map<String, JobRecord> found = store.find(ids);
        List<JobRecord> records = new ArrayList<>(found.size());
        for (String id : ids) {
            JobRecord record = found.get(id);
            if (record != null) {
                records.add(record);
            }
        }
        return records;
    }

    /** Every record as stored, oldest first: no backend is asked. */
    public List<JobRecord> stored() {
        return store.list();
    }

    /** Every record, with unfinished jobs refreshed in one status call per backend. */
    public List<JobRecord> jobs() {
        return refresh(store.list());
    }

    /**
     * The job's output. A backend that keeps one merged stream ({@code Capabilities.mergedLogs()}) reports every line
     * as standard output, so asking it for standard error alone is refused rather than answered with nothing.
     */
    public void logs(String id, LogOptions options, LogSink sink) throws InterruptedException {
        JobRecord record = store.find(id).orElseThrow(() -> notFound(id));
        JobRef ref = record.ref().orElseThrow(() -> interrupted(record));
        Backend backend = backends.backend(record.backend());
        if (!options.stdout() && backend.capabilities().mergedLogs()) {
            throw new GantryException(ErrorCode.USAGE, "backend '" + record.backend() + "' keeps one log per job "
                    + "with standard output and standard error merged, so standard error cannot be shown alone; "
                    + "ask for both streams (or stdout), which are the same merged log");
        }
        backend.logs(ref, options, sink);
    }

    /** The job's history, oldest first. */
    public List<JobEvent> history(String id) {
        store.find(id).orElseThrow(() -> notFound(id));
        return store.history(id);
    }

    public JobRecord cancel(String id) {
        JobRecord record = store.find(id).orElseThrow(() -> notFound(id));
        JobRef ref = record.ref().orElseThrow(() -> interrupted(record));
        store.append(List.of(JobEvent.of(id, clock.instant(), JobEvent.CANCELLING, "asked backend '"
                + record.backend() + "' to cancel job " + ref.id())));
        backends.backend(record.backend()).cancel(ref);
        return job(id);
    }

    private List<JobRecord> refresh(List<JobRecord> records) {
        Map<String, List<JobRecord>> open = new LinkedHashMap<>();
        for (JobRecord record : records) {
            if (record.ref().isPresent() && !record.state().isTerminal()) {
                open.computeIfAbsent(record.backend(), b -> new ArrayList<>()).add(record);
            }
        }
        Map<String, JobRecord> updated = new LinkedHashMap<>();
        open.forEach((backendName, group) -> {
            List<JobRef> refs = group.stream().map(r -> r.ref().orElseThrow()).toList();
            Map<JobRef, JobStatus> statuses = backends.backend(backendName).statuses(refs);
            for (JobRecord record : group) {
                JobStatus status = statuses.get(record.ref().orElseThrow());
                if (status != null && changed(record, status)) {
                    JobRecord fresh = record.withStatus(status, clock.instant());
                    store.save(fresh, JobEvent.of(record.id(), fresh.updatedAt(), JobEvent.STATE, status.state()
                            + status.exitCode().stream().mapToObj(c -> " (exit " + c + ")").findFirst().orElse("")
                            + ": " + status.message() + (status.evictions() > record.evictions()
                            ? "; evicted (" + status.lastEviction().map(e -> e.reason()).orElse("") + "), "
                            + status.evictions() + " so far" : "")));
                    updated.put(record.id(), fresh);
                }
            }
        });
        List<JobRecord> result = new ArrayList<>(records.size());
        for (JobRecord record : records) {
            result.add(updated.getOrDefault(record.id(), record));
        }
        return result;
    }

    private static boolean changed(JobRecord record, JobStatus status) {
        return record.state() != status.state() || !record.exitCode().equals(status.exitCode())
                || !record.message().equals(status.message())
                || (status.startedAt().isPresent() && record.startedAt().isEmpty())
                || (status.endedAt().isPresent() && record.endedAt().isEmpty())
                || status.evictions() > record.evictions();
    }

    private static String placement(Plan plan) {
        String price = plan.pricePerHour().total() > 0
                ? String.format(Locale.ROOT, ", $%.4f/h", plan.pricePerHour().total()) : "";
        return plan.nodes() + " x " + plan.vmSize().name() + " in " + plan.region()
                + (plan.spot() ? " (spot" : " (on-demand") + price + ")";
    }

    private static GantryException notFound(String id) {
        return new GantryException(ErrorCode.JOB_NOT_FOUND, "no job '" + id + "'; 'gantry status' lists known jobs");
    }

    private static GantryException interrupted(JobRecord record) {
        return new GantryException(ErrorCode.JOB_NOT_FOUND, "job '" + record.id() + "' was never confirmed by backend '"
                + record.backend() + "' (its submission was interrupted); run the spec again with --idempotency-key "
                + record.id() + " to finish submitting it without creating a second job");
    }

    /**
     * Made when the first id is: seeding a SecureRandom and building a formatter cost about 10 ms of start-up, which
     * the commands that only plan or read (most of them) would otherwise pay when the service is wired.
     */
    private static final class IdParts {
        static final SecureRandom RANDOM = new SecureRandom();
        static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
                .withZone(ZoneOffset.UTC);
    }
}
