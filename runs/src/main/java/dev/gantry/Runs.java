package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.model.PlanOverrides;
import dev.gantry.model.JobRecord;
import dev.gantry.runs.jobs.JobService;
import dev.gantry.model.AttemptRecord;
import dev.gantry.runs.engine.JsonLinesEventLog;
import dev.gantry.runs.engine.LeaseHolder;
import dev.gantry.runs.engine.RunEngine;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.runs.engine.ProvenanceCapture;
import dev.gantry.model.RunProvenance;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunStatus;
import dev.gantry.core.runs.RunStore;
import dev.gantry.model.StepRecord;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.model.SpecDocument;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import dev.gantry.core.runs.RunBudget;
import java.util.function.Function;
import dev.gantry.model.RunLease;

/**
 * Workflow runs for programs and the CLI: start (or resume) a run of a workflow spec, drive it, follow, cancel and
 * explain it. Runs live in the state database with the job records, so any process that shares it (another terminal,
 * another machine on a shared PostgreSQL) sees and can drive the same runs.
 *
 * <pre>{@code
 * try (Gantry gantry = Gantry.builder().build()) {
 *     Runs.Started started = gantry.runs().start(Path.of("pipeline.yaml"));
 *     RunRecord done = gantry.runs().drive(started.run().id(), Duration.ofHours(24), List.of(myListener));
 * }
 * }</pre>
 */
public final class Runs {
    private final Planner planner;
    private final OpenBackends backends;
    private final RunStore store;
    private final JobService jobs;
    private final Clock clock;
    private final RunEngine.Settings settings;
    private final LeaseHolder holder = LeaseHolder.thisProcess();
    private final JsonLinesEventLog eventLog;

    Runs(Planner planner, OpenBackends backends, RunStore store, JobService jobs, Clock clock, RunEngine.Settings settings) {
        this.planner = planner;
        this.backends = backends;
        this.store = store;
        this.jobs = jobs;
        this.clock = clock;
        this.settings = settings;
        this.eventLog = new JsonLinesEventLog(planner.config().stateDirectory().resolve("runs"));
    }

    /**
     * A run as {@link #start} found or made it, with the plan it runs.
     *
     * @param run the run's record
     * @param resumed true when an unfinished run of the same workflow and spec was found and is taken up again
     * @param plan the plan of every job of the workflow
     * @param provenance what the run was made from: spec hash, git commit, catalog, Gantry version
     */
    public record Started(RunRecord run, boolean resumed, WorkflowPlan plan, RunProvenance provenance) {
    }

    /**
     * Plans the workflow of {@code spec} and opens its run: the unfinished run of the same workflow and spec when
     * there is one (a run a killed process left), else a new one. Nothing is submitted here; {@link #drive} does.
     *
     * @throws GantryException SPEC_INVALID for a spec that is not a valid workflow, NO_FEASIBLE_VM for a step that
     *     cannot be placed, PLAN_REJECTED when the backend cannot run a step; nothing is recorded then
     * @param spec the workflow's spec file
     * @return the run, whether it was resumed, its plan and provenance
     */
    public Started start(Path spec) {
        Path file = spec.toAbsolutePath().normalize();
        SpecDocument.WorkflowSpec workflow = workflow(file);
        WorkflowPlan plan = planner.plan(workflow.workflow(), PlanOverrides.none());
        RunProvenance provenance = ProvenanceCapture.capture(file, workflow.referencedFiles(),
                plan.steps().get(0).plan().catalog(), BuildVersion.VALUE);
        RunEngine.Opened opened = engine(List.of()).open(plan, provenance, file.toString(), planner.config().backend());
        return new Started(opened.run(), opened.resumed(), plan, provenance);
    }

    /**
     * Drives the run until it ends or {@code timeout} passes, telling {@code listeners} as it goes; a run left
     * unfinished (timeout, interrupt, a killed process) is taken up again by the next {@code drive} or
     * {@link #start} of the same spec.
     *
     * @param runId the run's id
     * @param timeout the longest to drive before returning with the run unfinished
     * @param listeners told of every step change, job event and log line, on the driving thread
     * @return the run's record when it ended or the timeout passed; at once for a run already finished
     * @throws InterruptedException when the calling thread is interrupted; the run stays unfinished, to drive again
     * @throws GantryException USAGE when another live process drives it, or its spec changed since it started;
     *     JOB_NOT_FOUND for an unknown id
     */
    public RunRecord drive(String runId, Duration timeout, List<RunListener> listeners) throws InterruptedException {
        RunRecord run = find(runId);
        if (run.state().finished()) {
            return run;
        }
        try (LogFollowers logs = new LogFollowers(runId, store, jobs, listeners)) {
            List<RunListener> all = withEventLog(listeners);
            if (logs.needed()) {
                all.add(logs);
                // A job already running when this process took the run over is followed from the start.
                store.steps(runId).forEach(logs::stepChanged);
            }
            return engine(all).drive(runId, planOf(run), timeout);
        }
    }

    /**
     * Cancels the run: every active job is cancelled and what has not started is skipped, by this process when no
     * live one drives the run, else by its driver at its next poll.
     *
     * @param runId the run's id
     * @return the run's record afterwards
     * @throws GantryException JOB_NOT_FOUND for an unknown id
     */
    public RunRecord cancel(String runId) {
        RunRecord run = find(runId);
        return engine(withEventLog(List.of())).cancel(runId, planOf(run));
    }

    /**
     * Runs again what did not succeed: the step {@code step} names (a step, so all its matrix instances, or one
     * instance) and what was skipped because of it, or without one every failed, cancelled or skipped step. Those
     * steps wait again with their retries afresh, and the run is RUNNING again; {@link #drive} then runs them. Their
     * earlier attempts stay in the run's history.
     *
     * @param runId the run's id
     * @param step a step's or a matrix instance's name, or empty for every step that did not succeed
     * @return the run's record, RUNNING again
     * @throws GantryException USAGE when a live process drives the run, the step is unknown, has succeeded or has
     *     not ended, or nothing is left to retry
     */
    public RunRecord retry(String runId, Optional<String> step) {
        RunRecord run = find(runId);
        WorkflowPlan plan = planOf(run);
        if (store.acquireLease(runId, holder.id(), settings.leaseTtl(), LeaseHolder::abandoned).isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "run " + runId + " is being driven by process "
                    + driver(runId).map(RunLease::holder).orElse("another process") + "; retry it once that "
                    + "process has stopped, or 'gantry cancel " + runId + "' first");
        }
        try {
            List<StepRecord> reset = RetrySelection.steps(plan.workflow(), store.steps(runId), step, runId)
                    .stream().map(s -> s.retried("to run again (gantry retry)", clock.instant())).toList();
            store.saveSteps(reset);
            String names = String.join(", ", reset.stream().map(StepRecord::name).toList());
            store.updateState(runId, dev.gantry.model.RunState.RUNNING, Optional.of("retrying " + names),
                    clock.instant());
            store.append(List.of(RunEvent.ofRun(runId, clock.instant(), RunEvent.RETRY, "asked by process "
                    + holder.id() + " for " + names + ", with their retries afresh")));
        } finally {
            store.releaseLease(runId, holder.id());
        }
        return find(runId);
    }

    /**
     * The run's record, as stored.
     *
     * @param runId the run's id
     * @return the record
     * @throws GantryException JOB_NOT_FOUND when there is none
     */
    public RunRecord find(String runId) {
        return store.find(runId).orElseThrow(() -> new GantryException(ErrorCode.JOB_NOT_FOUND, "no run '" + runId
                + "'; 'gantry list --all' lists known runs"));
    }

    /**
     * Whether a run of that id exists.
     *
     * @param runId the run's id
     * @return true when the state database holds it
     */
    public boolean exists(String runId) {
        return store.find(runId).isPresent();
    }

    /**
     * Up to {@code limit} runs, newest first; only unfinished ones unless {@code includeFinished}.
     *
     * @param limit the most runs to return
     * @param includeFinished true to list finished runs too
     * @return the runs, newest first
     */
    public List<RunRecord> list(int limit, boolean includeFinished) {
        return store.list(limit, includeFinished);
    }

    /**
     * Where the run stands: its steps, attempts and their jobs, the active jobs refreshed in one call a backend.
     *
     * @param runId the run's id
     * @return the run's status now
     * @throws GantryException JOB_NOT_FOUND for an unknown id
     */
    public RunStatus status(String runId) {
        return status(runId, jobs::jobs);
    }

    /**
     * Where the run stands as recorded, without asking any backend: what a live view redraws from between the
     * driver's polls.
     *
     * @param runId the run's id
     * @return the run's status as recorded
     * @throws GantryException JOB_NOT_FOUND for an unknown id
     */
    public RunStatus snapshot(String runId) {
        return status(runId, jobs::stored);
    }

    /**
     * Where the run stands, as {@link #status} says, with the run's budget ({@code spec.budget.maxTotal}) read from
     * its spec file: what {@code gantry status RUN} prints.
     *
     * @param runId the run's id
     * @return the run's status now, with its budget when its spec has one and can still be read
     * @throws GantryException JOB_NOT_FOUND for an unknown id
     */
    public RunStatus statusWithBudget(String runId) {
        RunStatus status = status(runId);
        return new RunStatus(status.run(), status.steps(), status.attempts(), status.jobs(), status.at(),
                budgetOf(status.run()));
    }

    /** The run's budget from its spec file; empty when it has none, or the file was removed or no longer reads. */
    private OptionalDouble budgetOf(RunRecord run) {
        try {
            return RunBudget.maxTotal(workflow(Path.of(run.specFile())).workflow().budget());
        } catch (GantryException e) {
            return OptionalDouble.empty(); // the status stands without it
        }
    }

    /** The run with the job records of its attempts, as {@code records} reads them (refreshed or as stored). */
    private RunStatus status(String runId, Function<List<String>, List<JobRecord>> records) {
        RunRecord run = find(runId);
        List<AttemptRecord> attempts = store.attempts(runId);
        Map<String, JobRecord> byId = new LinkedHashMap<>();
        records.apply(attempts.stream().map(AttemptRecord::jobId).toList()).forEach(job -> byId.put(job.id(), job));
        return new RunStatus(run, ordered(store.steps(runId), attempts), attempts, byId, clock.instant());
    }

    /**
     * What happened to the run, oldest first.
     *
     * @param runId the run's id
     * @return its events, numbered in the order stored
     * @throws GantryException JOB_NOT_FOUND for an unknown id
     */
    public List<RunEvent> history(String runId) {
        find(runId);
        return store.events(runId);
    }

    /**
     * Events stored after {@code sequence}: what a follower has not seen yet.
     *
     * @param runId the run's id
     * @param sequence the sequence number of the last event seen; 0 for all
     * @return the later events, oldest first; empty for an unknown id
     */
    public List<RunEvent> historyAfter(String runId, long sequence) {
        return store.eventsAfter(runId, sequence);
    }

    /**
     * Who drives the run now, if anyone holds its lease.
     *
     * @param runId the run's id
     * @return the lease that has not expired; empty when no live process drives the run
     */
    public Optional<RunLease> driver(String runId) {
        return store.lease(runId).filter(lease -> lease.expiresAt().isAfter(clock.instant()));
    }

    /**
     * The output of the step's latest attempt (a step's name, or a matrix instance's).
     *
     * @param runId the run's id
     * @param step the step's or matrix instance's name
     * @param options which streams, how many lines, and whether to follow
     * @param sink where each line goes, on the calling thread
     * @throws InterruptedException when the calling thread is interrupted while following
     * @throws GantryException JOB_NOT_FOUND for an unknown run, or a step not submitted yet
     */
    public void logs(String runId, String step, LogOptions options, LogSink sink) throws InterruptedException {
        RunRecord run = find(runId);
        AttemptRecord attempt = store.attempts(runId).stream().filter(a -> a.step().equals(step))
                .reduce((a, b) -> b.number() > a.number() ? b : a).orElseThrow(() -> new GantryException(
                        ErrorCode.JOB_NOT_FOUND, "step '" + step + "' of run " + run.id() + " has not been "
                        + "submitted; 'gantry status " + run.id() + "' shows its steps"));
        jobs.logs(attempt.jobId(), options, sink);
    }

    /** The steps in the order they were first submitted (the order they ran in), those not submitted yet last. */
    private static List<StepRecord> ordered(List<StepRecord> steps, List<AttemptRecord> attempts) {
        Map<String, Instant> first = new LinkedHashMap<>();
        for (AttemptRecord attempt : attempts) {
            first.merge(attempt.step(), attempt.createdAt(), (a, b) -> a.isBefore(b) ? a : b);
        }
        return steps.stream().sorted(Comparator.comparing((StepRecord step) -> first.getOrDefault(step.name(),
                Instant.MAX)).thenComparing(StepRecord::name)).toList();
    }

    private RunEngine engine(List<RunListener> listeners) {
        return new RunEngine(store, jobs, backends::backend, new AdvisorReplanner(planner), clock, settings, holder,
                listeners);
    }

    /** The listeners, with the run's JSON-lines event log ({@code STATE_DIR/runs/RUN.events.jsonl}) first. */
    private List<RunListener> withEventLog(List<RunListener> listeners) {
        List<RunListener> all = new java.util.ArrayList<>();
        all.add(eventLog);
        all.addAll(listeners);
        return all;
    }

    /**
     * The file the run's events are mirrored to as JSON lines, on the machine that drove it.
     *
     * @param runId the run's id
     * @return {@code STATE_DIR/runs/RUN.events.jsonl}; it may not exist on this machine
     */
    public Path eventLog(String runId) {
        return eventLog.file(runId);
    }

    /** The run's plan, made again from its spec file, which must be the spec it started from. */
    private WorkflowPlan planOf(RunRecord run) {
        Path file = Path.of(run.specFile());
        SpecDocument.WorkflowSpec workflow = workflow(file);
        WorkflowPlan plan = planner.plan(workflow.workflow(), PlanOverrides.none());
        RunProvenance now = ProvenanceCapture.capture(file, workflow.referencedFiles(),
                plan.steps().get(0).plan().catalog(), BuildVersion.VALUE);
        if (!now.specHash().equals(run.specHash())) {
            throw new GantryException(ErrorCode.USAGE, "the spec of run " + run.id() + " (" + file + ", or a file "
                    + "its steps name) changed since the run started (" + run.specHash() + ", now " + now.specHash()
                    + "); restore it to go on with the run, or 'gantry cancel " + run.id() + "' and start anew");
        }
        return plan;
    }

    private SpecDocument.WorkflowSpec workflow(Path file) {
        SpecDocument document = planner.loadAny(file);
        if (document instanceof SpecDocument.WorkflowSpec workflow) {
            return workflow;
        }
        if (heldToBudget(document)) {
            return new SpecDocument.WorkflowSpec(WorkflowDefinition.ofWorkload(
                    ((SpecDocument.WorkloadSpec) document).workload()), List.of());
        }
        throw new GantryException(ErrorCode.USAGE, file + " is a workload (kind: Workload), not a workflow; run it "
                + "with 'gantry run " + file + "'");
    }

    /**
     * Whether the spec is a workload with a {@code budget.maxTotal}: such a workload runs as a one-step run (its
     * step named as the workload), since the run engine is what holds a run to its budget.
     *
     * @param document a spec as read
     * @return true for a workload whose budget has a {@code maxTotal}
     */
    public static boolean heldToBudget(SpecDocument document) {
        return document instanceof SpecDocument.WorkloadSpec spec
                && RunBudget.maxTotal(spec.workload().budget()).isPresent();
    }

    /** Closes the run store (the state database's connections); the facade does, when it is closed. */
    void close() {
        store.close();
    }
}
