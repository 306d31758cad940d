package dev.gantry.runs.engine;

import dev.gantry.model.RunProvenance;
import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.model.RunRecord;
import dev.gantry.core.runs.RunScheduler;
import dev.gantry.model.RunState;
import dev.gantry.core.runs.RunStore;
import dev.gantry.core.runs.SpotMoves;
import dev.gantry.core.runs.SpotRelocation;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.core.runs.StepOutputs;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.model.JobRecord;
import dev.gantry.runs.jobs.JobService;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import dev.gantry.model.RunLease;

/**
 * Drives workflow runs: submits each step's jobs once their dependencies succeeded, follows them with one status
 * call per backend per poll, retries failures, resumes evicted Spot steps from their checkpoint, applies each step's
 * {@code onFailure}, and ends the run. What to do is {@link RunScheduler}'s; this class acts on it, and writes down
 * every move before and after the remote call it makes, so that a process killed at any point is replaced by the next
 * {@code gantry run} of the same workflow without a step running twice or a job being forgotten:
 *
 * <ul>
 *   <li>an attempt's job id (the backend's idempotency key) is derived from the run, the job and the attempt number,
 *       and the attempt is recorded before the backend is asked, so a repeated submit finds the job it made;
 *   <li>a run is driven by one process at a time, the holder of its lease ({@link RunStore#acquireLease}); a lease
 *       whose holder died on this machine is taken over at once.
 * </ul>
 */
public final class RunEngine {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** The SPI's limit on an idempotency key. */
    private static final int MAX_KEY = 128;

    /**
     * How the engine drives.
     *
     * @param pollInterval how long between two looks at the run's jobs
     * @param leaseTtl how long the lease lasts unless renewed (each poll renews it)
     * @param onDemandAfterEvictions after this many evictions of one step, its next attempt runs on on-demand
     *     capacity; 0: never move it
     * @param nextRegionAfterEvictions after this many evictions of one step in one region, its next attempt runs on
     *     Spot in the next allowed region, on a backend that places jobs by their plan's region; 0: never move it
     */
    public record Settings(Duration pollInterval, Duration leaseTtl, int onDemandAfterEvictions,
                           int nextRegionAfterEvictions) {
        public static final Settings DEFAULT = new Settings(Duration.ofSeconds(5), Duration.ofMinutes(2), 3, 0);

        public Settings {
            Objects.requireNonNull(pollInterval, "pollInterval");
            Objects.requireNonNull(leaseTtl, "leaseTtl");
            if (pollInterval.isNegative() || pollInterval.isZero() || leaseTtl.compareTo(pollInterval) <= 0) {
                throw new IllegalArgumentException("the poll interval must be positive and shorter than the lease: "
                        + pollInterval + ", " + leaseTtl);
            }
            if (onDemandAfterEvictions < 0 || nextRegionAfterEvictions < 0) {
                throw new IllegalArgumentException("eviction limits are 0 or more: " + onDemandAfterEvictions + ", "
                        + nextRegionAfterEvictions);
            }
        }

        /** Steps never change region. */
        public Settings(Duration pollInterval, Duration leaseTtl, int onDemandAfterEvictions) {
            this(pollInterval, leaseTtl, onDemandAfterEvictions, 0);
        }

        SpotMoves moves() {
            return new SpotMoves(onDemandAfterEvictions, nextRegionAfterEvictions);
        }
    }

    /**
     * Plans a step's workload again for an attempt that does not run as the step was planned: on on-demand capacity
     * after too many evictions, or in other regions than the one that evicted it. Core's implementation asks the
     * advisor, so a moved attempt carries its own size, price and reasons.
     */
    public interface Replanner {
        /** The regions the workload may run in: its own, else the configuration's, else every one the catalog has. */
        List<String> regions(dev.gantry.api.Workload workload);

        /**
         * The workload planned again among {@code regions} (empty: wherever it may run), on on-demand capacity only
         * when {@code onDemand}, else under its own Spot policy.
         *
         * @throws GantryException when nothing fits there
         */
        Plan plan(dev.gantry.api.Workload workload, boolean onDemand, List<String> regions);

        /** Plans nothing again: every attempt runs as its step was planned (for runs with no step on Spot). */
        static Replanner asPlanned() {
            return new Replanner() {
                @Override
                public List<String> regions(dev.gantry.api.Workload workload) {
                    return workload.regions();
                }

                @Override
                public Plan plan(dev.gantry.api.Workload workload, boolean onDemand, List<String> regions) {
                    throw new GantryException(ErrorCode.PLAN_REJECTED, "this engine plans no step again");
                }
            };
        }
    }

    /** A run as {@link #open} found or made it. */
    public record Opened(RunRecord run, boolean resumed) {
    }

    private final RunStore runs;
    private final JobService jobs;
    private final Function<String, Backend> backends;
    private final Replanner replanner;
    private final Clock clock;
    private final Settings settings;
    private final LeaseHolder holder;
    private final RunNotifier notifier;
    private final BudgetGuard budgets;
    private final SecureRandom random = new SecureRandom();

    public RunEngine(RunStore runs, JobService jobs, Function<String, Backend> backends, Replanner replanner,
            Clock clock, Settings settings, LeaseHolder holder, List<RunListener> listeners) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.backends = Objects.requireNonNull(backends, "backends");
        this.replanner = Objects.requireNonNull(replanner, "replanner");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.holder = Objects.requireNonNull(holder, "holder");
        this.notifier = new RunNotifier(runs, listeners);
        this.budgets = new BudgetGuard(jobs, notifier, settings.pollInterval());
    }

    /**
     * The unfinished run of this workflow and spec (a run that a killed process left), or a new one. Every step's
     * plan is validated by the backend first: when one cannot run there, nothing is recorded and nothing submitted.
     */
    public Opened open(WorkflowPlan plan, RunProvenance provenance, String specFile, String backendName) {
        validate(plan, backendName);
        String name = plan.workflow().name();
        Instant now = clock.instant();
        String id = newRunId(name);
        RunRecord candidate = new RunRecord(id, name, specFile, provenance.specHash(), provenance.gitCommit(),
                provenance.gitDirty(), provenance.catalogSource(), provenance.catalogDate(),
                provenance.gantryVersion(), backendName, RunState.RUNNING, Optional.empty(), now, now,
                Optional.empty());
        List<StepRecord> steps = plan.steps().stream()
                .map(step -> StepRecord.of(id, step.instance().name(), StepState.WAITING, now)).toList();
        RunRecord run = runs.open(candidate, steps);
        if (!run.id().equals(id)) {
            runs.append(List.of(RunEvent.ofRun(run.id(), now, RunEvent.RESUMED, "by process " + holder.id()
                    + "; the spec is unchanged (" + shortHash(provenance.specHash()) + ")")));
            return new Opened(run, true);
        }
        runs.append(List.of(RunEvent.ofRun(id, now, RunEvent.STARTED, plan.steps().size() + " jobs on backend '"
                + backendName + "', spec " + shortHash(provenance.specHash())
                + provenance.gitCommit().map(c -> ", commit " + c.substring(0, Math.min(12, c.length()))
                + (provenance.gitDirty().orElse(false) ? " with uncommitted changes" : "")).orElse(""))));
        return new Opened(run, false);
    }

    /**
     * Drives the run until it ends or {@code timeout} passes, polling every {@link Settings#pollInterval}; the run
     * is left as it stands when the thread is interrupted or the time runs out, for {@code gantry run} or
     * {@code gantry attach} to go on with later. A poll the backend cannot answer (a host or service not reachable
     * for a while) is tried again at the next one, said once in the run's history until it answers again.
     *
     * @throws GantryException USAGE when another live process drives the run
     */
    public RunRecord drive(String runId, WorkflowPlan plan, Duration timeout) throws InterruptedException {
        takeLease(runId);
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastFailure = null;
        try {
            while (true) {
                RunRecord run;
                try {
                    run = tick(runId, plan);
                    lastFailure = null;
                } catch (GantryException e) {
                    if (e.code() != ErrorCode.BACKEND_UNAVAILABLE && e.code() != ErrorCode.REMOTE_ERROR) {
                        throw e;
                    }
                    if (!e.getMessage().equals(lastFailure)) {
                        runs.append(List.of(RunEvent.ofRun(runId, clock.instant(), RunEvent.POLL_FAILED,
                                e.getMessage() + "; trying again at each poll")));
                        notifier.catchUp(runId);
                    }
                    lastFailure = e.getMessage();
                    run = runs.find(runId).orElseThrow(() -> notFound(runId));
                }
                if (run.state().finished() || System.nanoTime() >= deadline) {
                    return run;
                }
                Thread.sleep(pause(runId).toMillis());
                if (runs.renewLease(runId, holder.id(), settings.leaseTtl()).isEmpty()) {
                    throw new GantryException(ErrorCode.USAGE, "run " + runId + " was taken over by another "
                            + "process while this one waited; it drives the run now");
                }
            }
        } finally {
            runs.releaseLease(runId, holder.id());
        }
    }

    /**
     * One look at the run, and the moves it calls for: finish submissions a killed process left half done, refresh
     * every active job (one status call per backend), record what changed, then submit, skip and cancel as the
     * scheduler decides. Callers hold the run's lease ({@link #drive} does).
     */
    public RunRecord tick(String runId, WorkflowPlan plan) {
        RunRecord run = runs.find(runId).orElseThrow(() -> notFound(runId));
        if (run.state().finished()) {
            notifier.catchUp(runId);
            return run;
        }
        RunPass pass = new RunPass(run, plan, runs.steps(runId), runs.attempts(runId), clock.instant(), runs,
                notifier);
        notifier.catchUp(runId);
        if (notifier.cancelAsked(runId)) {
            return cancelNow(pass);
        }
        BudgetGuard.Stops before = budgets.stoppedBefore(pass);
        if (before.run().isPresent()) {
            return stopAtBudget(pass, before.run().get());
        }
        before.jobs().forEach((name, message) -> failAtBudget(pass, name, message));
        finishInterruptedSubmissions(pass);
        observe(pass);
        BudgetGuard.Stops stops = budgets.check(pass, plan);
        if (stops.run().isPresent()) {
            return stopAtBudget(pass, stops.run().get());
        }
        stops.jobs().forEach((name, message) -> failAtBudget(pass, name, message));
        act(pass, RunScheduler.decide(plan.workflow(), pass.standings(), pass.now, passDown(pass)));
        pass.flush();
        notifier.catchUp(runId);
        return runs.find(runId).orElseThrow(() -> notFound(runId));
    }

    /**
     * Asks for the run to be cancelled. The process driving it (this one, when no live process holds its lease)
     * cancels every active job, skips what has not started and ends the run CANCELLED.
     */
    public RunRecord cancel(String runId, WorkflowPlan plan) {
        RunRecord run = runs.find(runId).orElseThrow(() -> notFound(runId));
        if (run.state().finished()) {
            return run;
        }
        runs.append(List.of(RunEvent.ofRun(runId, clock.instant(), RunEvent.CANCELLING, "asked by process "
                + holder.id())));
        Optional<RunLease> lease = runs.acquireLease(runId, holder.id(), settings.leaseTtl(),
                LeaseHolder::abandoned);
        if (lease.isEmpty()) {
            return run; // its driver sees the request at its next poll
        }
        try {
            return tick(runId, plan);
        } finally {
            runs.releaseLease(runId, holder.id());
        }
    }

    /** The job id of an attempt, also its idempotency key: the same for every process that submits it. */
    static String jobId(String runId, String job, int attempt) {
        String key = runId + "." + job + "." + attempt;
        if (key.length() <= MAX_KEY) {
            return key;
        }
        String digest = HexFormat.of().formatHex(sha256(runId + "." + job)).substring(0, 16);
        String suffix = "-" + digest + "." + attempt;
        return runId.substring(0, Math.min(runId.length(), MAX_KEY - suffix.length())) + suffix;
    }

    /**
     * Asks the backend about each step once, with its first job's plan: the jobs of a matrix share their step's plan
     * and differ only in name and environment, which a backend's check does not read (a 1,000-job matrix is one
     * question, not 1,000, as it is one plan).
     */
    private void validate(WorkflowPlan plan, String backendName) {
        Backend backend = backends.apply(backendName);
        List<Problem> problems = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Set<StepDefinition> asked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (WorkflowPlan.PlannedStep step : plan.steps()) {
            if (!asked.add(step.step())) {
                continue;
            }
            int others = step.step().instances().size() - 1;
            String which = "step '" + step.instance().name() + "'" + (others > 0 ? " (and the " + others
                    + " other jobs of its matrix)" : "");
            List<Problem> found = new ArrayList<>(backend.validate(step.plan()));
            found.addAll(StartChecks.problems(step.plan()));
            for (Problem problem : found) {
                problems.add(problem);
                lines.add(which + ": " + problem);
            }
        }
        if (!problems.isEmpty()) {
            throw new GantryException(ErrorCode.PLAN_REJECTED, "backend '" + backendName + "' cannot run workflow '"
                    + plan.workflow().name() + "'; nothing was submitted:\n" + String.join("\n", lines), problems,
                    null);
        }
    }

    private void takeLease(String runId) {
        if (runs.acquireLease(runId, holder.id(), settings.leaseTtl(), LeaseHolder::abandoned).isEmpty()) {
            String other = runs.lease(runId).map(RunLease::holder).orElse("another process");
            throw new GantryException(ErrorCode.USAGE, "run " + runId + " is being driven by process " + other
                    + "; follow it with 'gantry attach " + runId + "' or 'gantry status " + runId + "'");
        }
    }

    /** Until the next poll, or sooner when a retry is due before it. */
    private Duration pause(String runId) {
        Instant now = clock.instant();
        Duration pause = settings.pollInterval();
        for (StepRecord step : runs.steps(runId)) {
            if (step.state() == StepState.RETRY_WAIT && step.nextAttemptAt().isPresent()) {
                Duration until = Duration.between(now, step.nextAttemptAt().get());
                if (until.compareTo(pause) < 0) {
                    pause = until.isNegative() ? Duration.ZERO : until;
                }
            }
        }
        return pause;
    }

    /**
     * Steps recorded SUBMITTED whose job has no backend reference: the process that recorded the attempt died before
     * the backend answered (or before it was asked). Submitting again with the same key returns the job if the
     * backend made it, and makes it if not.
     */
    private void finishInterruptedSubmissions(RunPass pass) {
        List<StepRecord> submitted = pass.steps.values().stream().filter(s -> s.state() == StepState.SUBMITTED)
                .toList();
        Map<String, JobRecord> byId = new LinkedHashMap<>();
        jobs.stored(submitted.stream().map(s -> pass.current(s.name()).orElseThrow().jobId()).toList())
                .forEach(job -> byId.put(job.id(), job));
        List<StepRecord> steps = new ArrayList<>();
        List<AttemptRecord> attempts = new ArrayList<>();
        for (StepRecord step : submitted) {
            AttemptRecord attempt = pass.current(step.name()).orElseThrow();
            JobRecord job = byId.get(attempt.jobId());
            if (job == null || job.stage() == JobRecord.Stage.SUBMITTING) {
                steps.add(step);
                attempts.add(attempt);
            }
        }
        submit(pass, steps, attempts, true);
    }

    /** Refreshes every active job in one status call per backend, and records what changed. */
    private void observe(RunPass pass) {
        List<String> active = new ArrayList<>();
        for (StepRecord step : pass.steps.values()) {
            if (step.state() == StepState.SUBMITTED || step.state() == StepState.RUNNING) {
                active.add(pass.current(step.name()).orElseThrow().jobId());
            }
        }
        Map<String, JobRecord> byId = new LinkedHashMap<>();
        for (JobRecord job : jobs.jobs(active)) {
            byId.put(job.id(), job);
        }
        StepObserver observer = observer(pass);
        for (StepRecord step : List.copyOf(pass.steps.values())) {
            if (step.state() != StepState.SUBMITTED && step.state() != StepState.RUNNING) {
                continue;
            }
            AttemptRecord attempt = pass.current(step.name()).orElseThrow();
            JobRecord job = byId.get(attempt.jobId());
            if (job != null && job.ref().isPresent()) {
                observer.observe(step, attempt, job);
            }
        }
    }

    /**
     * Which active steps a dependent may be submitted behind, for the orchestrator to start once they succeed: only
     * on a backend that orders jobs itself, and only steps whose jobs will not be replaced by Gantry (no retries, and
     * no Spot recovery that would make a new job, unless the orchestrator requeues the same one) and that publish no
     * outputs.
     */
    private Predicate<StepDefinition> passDown(RunPass pass) {
        Capabilities capabilities = backends.apply(pass.run.backend()).capabilities();
        if (!capabilities.nativeDependencies()) {
            return step -> false;
        }
        boolean requeues = capabilities.evictions() == EvictionHandling.REQUEUES;
        // A step with outputs is waited for here: its dependents' inputs are known only once it succeeded.
        return step -> step.retries().count() == 0 && step.outputs().isEmpty() && (requeues || step.instances()
                .stream().noneMatch(instance -> pass.planned(instance.name()).plan().spot()));
    }

    /** The jobs of the step's dependencies that have not succeeded yet, for the orchestrator to wait for. */
    private List<JobDependency> dependencies(RunPass pass, StepRecord step) {
        List<JobDependency> dependencies = new ArrayList<>();
        for (String name : pass.planned(step.name()).step().dependsOn()) {
            for (StepInstance instance : pass.step(name).instances()) {
                if (pass.steps.get(instance.name()).state() == StepState.SUCCEEDED) {
                    continue;
                }
                pass.current(instance.name()).flatMap(attempt -> jobs.find(attempt.jobId()))
                        .flatMap(JobRecord::ref).ifPresent(ref -> dependencies.add(JobDependency.afterSuccess(ref)));
            }
        }
        return dependencies;
    }

    private StepObserver observer(RunPass pass) {
        return new StepObserver(pass, jobs, settings.moves(), notifier);
    }

    private void act(RunPass pass, RunScheduler.Decision decision) {
        decision.skip().forEach((name, reason) -> {
            pass.setStep(pass.steps.get(name), StepState.SKIPPED, Optional.empty(), reason);
            pass.event(name, RunEvent.SKIPPED, reason);
        });
        decision.cancel().forEach((name, reason) -> cancelStep(pass, pass.steps.get(name), reason));
        List<StepRecord> started = new ArrayList<>();
        List<AttemptRecord> attempts = new ArrayList<>();
        for (StepInstance instance : decision.submit()) {
            StepRecord step = pass.steps.get(instance.name());
            AttemptRecord attempt = newAttempt(pass, step);
            started.add(step.submitted(attempt.number(), "attempt " + attempt.number() + " submitted", pass.now));
            attempts.add(attempt);
        }
        // Every intent is stored, in one write, before the backend is asked for any of the jobs.
        runs.startAttempts(started, attempts);
        for (int i = 0; i < started.size(); i++) {
            pass.recorded(started.get(i), attempts.get(i));
        }
        submit(pass, started, attempts, false);
        decision.outcome().ifPresent(state -> end(pass, state, outcomeMessage(pass, state)));
    }

    private AttemptRecord newAttempt(RunPass pass, StepRecord step) {
        int number = step.attempts() + 1;
        Plan plan = planFor(pass, step);
        double price = plan.pricePerHour().total();
        return new AttemptRecord(pass.run.id(), step.name(), number, jobId(pass.run.id(), step.name(), number),
                price > 0 ? OptionalDouble.of(price) : OptionalDouble.empty(), plan.spot(),
                Optional.of(plan.region()), pass.now);
    }

    /**
     * The plan of the step's next attempt, where {@link SpotRelocation} puts it: the advisor plans it there, and when
     * nothing fits the step stays where its last attempt ran, said in the run's history.
     */
    private Plan planFor(RunPass pass, StepRecord step) {
        Plan planned = pass.planned(step.name()).plan();
        if (!planned.spot()) {
            return planned;
        }
        SpotRelocation.Placement placement = SpotRelocation.next(planned, step.evictions(),
                pass.attempts(step.name()), settings.moves(),
                backends.apply(pass.run.backend()).capabilities().placesByRegion(), pass.run.backend(),
                () -> replanner.regions(planned.workload()));
        if (placement instanceof SpotRelocation.OnDemand) {
            return planIn(pass, step, false, Optional.empty());
        }
        if (placement instanceof SpotRelocation.SpotIn stay) {
            stay.note().ifPresent(note -> pass.event(step.name(), RunEvent.RETRY, note));
            return planIn(pass, step, true, Optional.of(stay.region()));
        }
        if (placement instanceof SpotRelocation.NextRegion move) {
            try {
                Plan moved = replanner.plan(planned.workload(), false, move.regions());
                pass.event(step.name(), RunEvent.RETRY, move.evicted() + "; attempt " + (step.attempts() + 1)
                        + " moves to " + moved.region() + " (" + moved.vmSize().name() + (moved.spot() ? " on Spot"
                        : " on-demand") + "), the best of " + move.regions());
                return moved;
            } catch (GantryException e) {
                pass.event(step.name(), RunEvent.RETRY, move.evicted() + "; no other allowed region fits ("
                        + e.getMessage() + "), so the step stays in " + move.from());
                return planIn(pass, step, true, Optional.of(move.from()));
            }
        }
        return planned;
    }

    /**
     * The step's plan on Spot capacity or not, in {@code region} (empty: wherever it may run): the plan as made when
     * that is what it says, else made again; as made when nothing else fits, said in the run's history.
     */
    private Plan planIn(RunPass pass, StepRecord step, boolean spot, Optional<String> region) {
        Plan planned = pass.planned(step.name()).plan();
        boolean inPlannedRegion = region.isEmpty() || region.get().equals(planned.region());
        // A step planned on-demand is never moved.
        if (!planned.spot() || spot && inPlannedRegion) {
            return planned;
        }
        try {
            return replanner.plan(planned.workload(), !spot, region.map(List::of).orElse(List.of()));
        } catch (GantryException e) {
            pass.event(step.name(), RunEvent.RETRY, "no " + (spot ? "Spot" : "on-demand") + " capacity fits"
                    + region.map(r -> " in " + r).orElse("") + " (" + e.getMessage() + "); the step runs as planned, "
                    + (planned.spot() ? "on Spot" : "on-demand") + " in " + planned.region());
            return planned;
        }
    }

    /**
     * Submits the attempts' jobs in one {@link Backend#submitAll}, their intents stored before it. A backend that
     * cannot be reached (or fails part-way) leaves every attempt to be submitted again with its key at the next poll;
     * a batch the backend refuses is submitted again job by job with the same keys, which returns the jobs it made
     * and gives each refusal to its own step.
     */
    private void submit(RunPass pass, List<StepRecord> steps, List<AttemptRecord> attempts, boolean again) {
        List<StepRecord> sent = new ArrayList<>();
        List<AttemptRecord> sentAttempts = new ArrayList<>();
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Optional<Submission> submission = submission(pass, steps.get(i), attempts.get(i), again);
            if (submission.isPresent()) {
                sent.add(steps.get(i));
                sentAttempts.add(attempts.get(i));
                submissions.add(submission.get());
            }
        }
        pass.flush(); // the intents are stored before the backend is asked
        if (submissions.isEmpty()) {
            return;
        }
        try {
            submitted(pass, sent, jobs.submitAll(submissions, pass.run.backend(),
                    Optional.of(pass.run.specFile())));
        } catch (GantryException e) {
            if (submissions.size() == 1 || retryable(e)) {
                for (int i = 0; i < sent.size(); i++) {
                    failed(pass, sent.get(i), sentAttempts.get(i), e);
                }
                return;
            }
            for (int i = 0; i < sent.size(); i++) {
                try {
                    submitted(pass, List.of(sent.get(i)), List.of(jobs.submit(submissions.get(i).plan(),
                            pass.run.backend(), submissions.get(i).options(), Optional.of(pass.run.specFile()))));
                } catch (GantryException one) {
                    failed(pass, sent.get(i), sentAttempts.get(i), one);
                }
            }
        }
    }

    private static void submitted(RunPass pass, List<StepRecord> steps, List<JobRecord> jobs) {
        for (int i = 0; i < steps.size(); i++) {
            pass.event(steps.get(i).name(), RunEvent.SUBMITTED, "backend job "
                    + jobs.get(i).ref().map(r -> r.id()).orElse("?"));
        }
    }

    private static boolean retryable(GantryException e) {
        return e.code() == ErrorCode.BACKEND_UNAVAILABLE || e.code() == ErrorCode.REMOTE_ERROR;
    }

    private void failed(RunPass pass, StepRecord step, AttemptRecord attempt, GantryException e) {
        if (retryable(e)) {
            // The backend may have made the job: keep the attempt, and submit it again with its key next poll.
            pass.event(step.name(), RunEvent.RETRY, "submitting attempt " + attempt.number() + " failed ("
                    + e.getMessage() + "); it is submitted again with the same key at the next poll");
            return;
        }
        observer(pass).ended(step, attempt, AttemptOutcome.FAILED, "the backend refused attempt " + attempt.number()
                + ": " + e.getMessage());
    }

    /** The attempt's submission, its intent said in the run's history; empty when it cannot start (ended FAILED). */
    private Optional<Submission> submission(RunPass pass, StepRecord step, AttemptRecord attempt, boolean again) {
        // As the attempt was recorded, also when submitted again after an interrupted submit.
        Plan plan = planIn(pass, step, attempt.spot(), attempt.region());
        try {
            plan = plan.withWorkload(StepOutputs.resolve(plan.workload(), pass::output));
            if (!pass.planned(step.name()).step().outputs().isEmpty()) {
                plan = plan.withWorkload(StepOutputs.collecting(plan.workload()));
            }
        } catch (IllegalStateException e) {
            observer(pass).ended(step, attempt,
                    AttemptOutcome.FAILED, "attempt " + attempt.number() + " cannot start: " + e.getMessage());
            return Optional.empty();
        }
        boolean resume = attempt.number() > 1 && plan.workload().checkpoint().isPresent();
        List<JobDependency> dependencies = dependencies(pass, step);
        SubmitOptions options = new SubmitOptions(attempt.jobId(), attempt.number(), resume, dependencies);
        pass.event(step.name(), RunEvent.SUBMITTING, (again ? "again, with the same key, after an interrupted "
                + "submit: " : "") + "attempt " + attempt.number() + " as job " + attempt.jobId()
                + (plan.spot() ? " on Spot" : " on-demand") + " in " + plan.region()
                + (resume ? ", resuming from the checkpoint" : "")
                + (dependencies.isEmpty() ? "" : ", started by the orchestrator once " + dependencies.size()
                + " job(s) it depends on succeed"));
        return Optional.of(new Submission(plan, options));
    }

    private void cancelStep(RunPass pass, StepRecord step, String reason) {
        AttemptRecord attempt = pass.current(step.name()).orElseThrow();
        pass.event(step.name(), RunEvent.CANCELLING, reason);
        pass.flush();
        cancelJob(attempt.jobId());
        pass.updateAttempt(attempt.ended(AttemptOutcome.CANCELLED));
        pass.setStep(step, StepState.CANCELLED, Optional.empty(), reason);
    }

    /** Cancels the job if it was ever submitted; a job the backend never confirmed has nothing to cancel. */
    private void cancelJob(String jobId) {
        Optional<JobRecord> job = jobs.find(jobId);
        if (job.isPresent() && job.get().ref().isPresent() && !job.get().state().isTerminal()) {
            jobs.cancel(jobId);
        }
    }

    private RunRecord cancelNow(RunPass pass) {
        return stopAll(pass, "the run was cancelled", RunState.CANCELLED, "cancelled on request");
    }

    /**
     * The run's budget is reached: as a cancel, but the run ends FAILED with the budget's message. The
     * {@code budget-reached} event is stored first (in the pass, flushed before the first cancel), so a successor
     * goes on with the stop.
     */
    private RunRecord stopAtBudget(RunPass pass, String message) {
        return stopAll(pass, message + " (the run's budget)", RunState.FAILED, message);
    }

    /** Cancels every active job, skips what has not started, and ends the run. */
    private RunRecord stopAll(RunPass pass, String reason, RunState state, String message) {
        pass.flush();
        for (StepRecord step : List.copyOf(pass.steps.values())) {
            if (active(step)) {
                cancelStep(pass, step, reason);
            } else if (!step.state().finished()) {
                pass.setStep(step, StepState.SKIPPED, Optional.empty(), reason);
            }
        }
        end(pass, state, message);
        pass.flush();
        notifier.catchUp(pass.run.id());
        return runs.find(pass.run.id()).orElseThrow(() -> notFound(pass.run.id()));
    }

    /**
     * A step's own budget is reached: its job is cancelled and the step FAILS, with no retry (a retry would spend
     * past the budget); the workflow's {@code onFailure} then applies as for any failed step.
     */
    private void failAtBudget(RunPass pass, String name, String message) {
        StepRecord step = pass.steps.get(name);
        if (step.state().finished()) {
            return;
        }
        if (active(step)) {
            AttemptRecord attempt = pass.current(name).orElseThrow();
            pass.event(name, RunEvent.CANCELLING, message + " (the step's budget)");
            pass.flush();
            cancelJob(attempt.jobId());
            pass.updateAttempt(attempt.ended(AttemptOutcome.CANCELLED));
        }
        pass.setStep(step, StepState.FAILED, Optional.empty(), message);
        pass.event(name, RunEvent.ENDED, "FAILED: " + message);
    }

    private static boolean active(StepRecord step) {
        return step.state() == StepState.SUBMITTED || step.state() == StepState.RUNNING;
    }

    private void end(RunPass pass, RunState state, String message) {
        pass.flush();
        runs.updateState(pass.run.id(), state, Optional.of(message), pass.now);
        pass.event(null, RunEvent.ENDED, state + ": " + message);
    }

    private static String outcomeMessage(RunPass pass, RunState state) {
        long succeeded = pass.steps.values().stream().filter(s -> s.state() == StepState.SUCCEEDED).count();
        List<String> failed = pass.steps.values().stream()
                .filter(s -> s.state() == StepState.FAILED || s.state() == StepState.CANCELLED)
                .map(StepRecord::name).toList();
        return succeeded + " of " + pass.steps.size() + " jobs succeeded"
                + (state == RunState.FAILED && !failed.isEmpty() ? "; failed: " + String.join(", ", failed) : "");
    }

    private String newRunId(String name) {
        byte[] bytes = new byte[3];
        random.nextBytes(bytes);
        return name + "-" + STAMP.format(clock.instant()) + "-" + HexFormat.of().formatHex(bytes);
    }

    private static String shortHash(String hash) {
        return hash.substring(0, Math.min(hash.length(), 19));
    }

    private static byte[] sha256(String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    static GantryException notFound(String runId) {
        return new GantryException(ErrorCode.JOB_NOT_FOUND, "no run '" + runId + "'; 'gantry list --all' lists "
                + "known runs");
    }
}
