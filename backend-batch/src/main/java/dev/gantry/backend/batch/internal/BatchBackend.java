package dev.gantry.backend.batch.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.internal.logs.TaskLogs;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.render.ContainerRunOptions;
import dev.gantry.backend.batch.internal.status.Poll;
import dev.gantry.backend.batch.internal.status.TaskCancel;
import dev.gantry.backend.batch.internal.status.TrackedTask;
import dev.gantry.backend.batch.internal.submit.SubmitOutcome;
import dev.gantry.backend.batch.internal.submit.SubmitParts;
import dev.gantry.backend.batch.internal.validate.AccountFacts;
import dev.gantry.backend.batch.internal.validate.BatchCapabilities;
import dev.gantry.backend.batch.internal.validate.PlanCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The batch backend: each plan's task in the Batch job of its pool, in the account of its region. It only delegates:
 * the submit path ({@link SubmitParts}), per account the status, logs, cancel, validate and gc components
 * ({@link AccountTools}), and the glue that keeps the state directory's entries up to date ({@link Tracking},
 * {@link HeldTasks}). A JobRef's id is the task's {@code ACCOUNT.JOB.TASK}, so a later instance over the same settings
 * and state directory answers for every task this one submitted. {@code doctor} is the SPI's default: Batch has no
 * hosts of Gantry's to probe.
 *
 * <p>Every call to Batch goes through the one retry policy ({@link dev.gantry.backend.batch.internal.remote.BatchCalls}),
 * one request at a time: the submit path, status polls, logs, cancel, validate and gc alike. A retry repeats only the
 * request that failed, so a poll's terminate is not sent twice and no log line comes twice.
 */
public final class BatchBackend implements Backend {
    static final String NAME = "batch";

    private final BatchSettings settings;
    private final BackendContext context;
    private final SubmitParts parts;
    private final AzureReach azure;
    private final Duration logPoll;
    private final Tracking tracking;
    private final HeldTasks held;
    private final PlanCheck planCheck;
    private final Map<String, AccountTools> tools = new ConcurrentHashMap<>();
    private volatile Capabilities capabilities;

    /** The production wiring: gantry-azure's default credentials where an account or the settings need them. */
    public static BatchBackend open(BatchSettings settings, BackendContext context) {
        return new BatchBackend(settings, context, SubmitParts.of(settings, context, ContainerRunOptions::of),
                AzureReach.production(settings), TaskLogs.DEFAULT_POLL_INTERVAL);
    }

    /**
     * @param parts the submit path; its accounts, calls, entries and secrets are shared with the status side
     * @param logPoll how often following logs asks for new output
     */
    public BatchBackend(BatchSettings settings, BackendContext context, SubmitParts parts, AzureReach azure,
                        Duration logPoll) {
        this.settings = settings;
        this.context = context;
        this.parts = parts;
        this.azure = azure;
        this.logPoll = logPoll;
        this.tracking = new Tracking(parts.entries(), parts.secrets(), context.logger());
        this.held = new HeldTasks(parts.entries(), parts.accounts(), parts.calls(), this::accountNamed);
        this.planCheck = new PlanCheck(settings, account -> tools(account).reads, context.clock());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** As configured: Spot where an account can have it (its facts, read once). */
    @Override
    public Capabilities capabilities() {
        Capabilities known = capabilities;
        if (known == null) {
            List<AccountFacts> facts = settings.accounts().stream().map(account -> tools(account).reads.facts())
                    .toList();
            known = BatchCapabilities.of(facts);
            capabilities = known;
        }
        return known;
    }

    /** Problems are returned; warnings go to the context's logger, as the SPI has no channel for them. */
    @Override
    public List<Problem> validate(Plan plan) {
        PlanCheck.Findings findings = planCheck.check(plan);
        findings.warnings().forEach(warning -> context.logger().log(System.Logger.Level.WARNING,
                "backends.batch: " + warning.path() + ": " + warning.message()));
        return findings.problems();
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        return ref(parts.submitter().submit(plan, options));
    }

    /**
     * Every submission is tried (grouped by pool, chunked); when any failed the call throws, naming each failure,
     * and the ones that succeeded have started: submitting them again with the same keys returns the same refs.
     */
    @Override
    public List<JobRef> submitAll(List<Submission> submissions) {
        List<SubmitOutcome> outcomes = parts.submitter().submitAll(submissions);
        List<SubmitOutcome.Failed> failed = outcomes.stream().filter(SubmitOutcome.Failed.class::isInstance)
                .map(SubmitOutcome.Failed.class::cast).toList();
        if (!failed.isEmpty()) {
            throw SubmitFailures.of(failed, outcomes.size());
        }
        return outcomes.stream().map(outcome -> ref(((SubmitOutcome.Submitted) outcome).entry())).toList();
    }

    @Override
    public JobStatus status(JobRef job) {
        TaskEntry entry = known(job);
        AccountTools account = tools(accountNamed(entry.account()));
        Poll poll = account.statuses.status(job.id(), tracking::tracked);
        after(poll);
        return poll.statuses().get(job.id());
    }

    /** One list call per Batch job asked about; jobs this state directory does not know are UNKNOWN. */
    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        Map<String, List<String>> byAccount = new LinkedHashMap<>();
        Map<String, JobStatus> answered = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            Optional<TaskEntry> entry = parts.entries().byId(job.id());
            if (entry.isPresent()) {
                byAccount.computeIfAbsent(entry.get().account(), name -> new ArrayList<>()).add(job.id());
            }
        }
        byAccount.forEach((account, ids) -> {
            AccountTools tools = tools(accountNamed(account));
            Poll poll = tools.statuses.statuses(ids, tracking::tracked);
            after(poll);
            answered.putAll(poll.statuses());
        });
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef job : jobs) {
            result.put(job, answered.getOrDefault(job.id(), JobStatus.of(dev.gantry.api.backend.JobState.UNKNOWN,
                    "batch job '" + job.id() + "' is not known here")));
        }
        return result;
    }

    /**
     * A held task has no output yet: following one waits, polling its status, until Batch has it or it ended. Once
     * the output is read the status is polled (no call once the task has ended), so that the run whose output was
     * read is recorded; following also polls it at each run it sees (the first, and any after a requeue), so that a
     * preemption it reads across is counted as an eviction even by a caller that only reads logs.
     */
    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException {
        TrackedTask task = Tracking.tracked(known(job));
        while (task.held() && task.ended().isEmpty() && options.follow()) {
            Thread.sleep(logPoll.toMillis());
            status(job);
            task = Tracking.tracked(known(job));
        }
        tools(accountNamed(task.ref().account())).logs.read(task, options, sink, () -> status(job));
        status(job);
    }

    @Override
    public void cancel(JobRef job) {
        TaskEntry entry = known(job);
        AccountTools account = tools(accountNamed(entry.account()));
        TaskCancel.Outcome outcome = account.cancel.cancel(Tracking.tracked(entry));
        if (outcome instanceof TaskCancel.EndedLocally local) {
            tracking.ended(entry, local.status());
        } else if (outcome instanceof TaskCancel.Terminated terminated) {
            parts.entries().save(entry.withRecord(terminated.record()));
        }
    }

    @Override
    public OptionalLong remoteCalls() {
        return OptionalLong.of(parts.accounts().remoteCalls());
    }

    @Override
    public List<IdleResource> idleResources() {
        List<IdleResource> idle = new ArrayList<>();
        settings.accounts().forEach(account -> idle.addAll(tools(account).idleResources()));
        return idle;
    }

    @Override
    public boolean release(IdleResource resource) {
        for (BatchAccountSettings account : settings.accounts()) {
            AccountTools candidate = tools(account);
            if (candidate.holds(resource)) {
                return candidate.release(resource);
            }
        }
        throw new GantryException(ErrorCode.USAGE, "the batch backend holds no " + resource.describe() + " in its "
                + "accounts " + settings.accounts().stream().map(BatchAccountSettings::name).toList() + "; list "
                + "what it holds idle with: gantry gc --dry-run");
    }

    /** Closes the connections; deletes nothing (pools shrink by their own formula, gc removes idle ones). */
    @Override
    public void close() {
        parts.accounts().close();
    }

    private void after(Poll poll) {
        tracking.save(poll);
        held.carryOut(poll.decisions());
    }

    private static JobRef ref(TaskEntry entry) {
        return new JobRef(NAME, entry.ref().id());
    }

    private TaskEntry known(JobRef job) {
        return parts.entries().byId(job.id()).orElseThrow(() -> new GantryException(ErrorCode.JOB_NOT_FOUND,
                "batch job '" + job.id() + "' is not known here: no task of that id was submitted through this "
                        + "state directory (ids look like ACCOUNT.JOB.TASK; 'gantry status' lists the jobs it knows)"));
    }

    private AccountTools tools(BatchAccountSettings account) {
        return tools.computeIfAbsent(account.name(), name -> new AccountTools(account, settings,
                parts.calls().on(parts.accounts().connection(account)), azure, context.stateDirectory(), context.clock(),
                logPoll));
    }

    private BatchAccountSettings accountNamed(String name) {
        return settings.accounts().stream().filter(account -> account.name().equals(name)).findFirst()
                .orElseThrow(() -> new GantryException(ErrorCode.USAGE, "the state directory knows tasks of Batch "
                        + "account '" + name + "', which backends.batch.accounts no longer has ("
                        + settings.accounts().stream().map(BatchAccountSettings::name).toList() + "); add it back to "
                        + "read them"));
    }
}
