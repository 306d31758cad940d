package dev.gantry.runs.engine;

import dev.gantry.model.RunProvenance;
import dev.gantry.model.AttemptOutcome;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.FailurePolicy;
import dev.gantry.model.RetryPolicy;
import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import static dev.gantry.core.runs.WorkflowDefinitionTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.core.ManualClock;
import dev.gantry.runs.jobs.JobService;
import dev.gantry.runs.state.SqlJobStore;
import dev.gantry.runs.state.SqlRunStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunEngineTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final RunProvenance PROVENANCE = new RunProvenance("sha256:0123456789abcdef0123", Optional.empty(),
            Optional.empty(), "embedded", LocalDate.parse("2026-11-01"), "test");
    private static final VmSize SIZE = new VmSize("Standard_F2s_v2", "F", 2, 4, Optional.empty(), false,
            Architecture.X64, Set.of("V1", "V2"));

    @TempDir
    Path state;

    private final ManualClock clock = new ManualClock(T0);
    private final ScriptedBackend backend = new ScriptedBackend();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final List<RunEvent> heard = new ArrayList<>();
    private final List<String> evictionsHeard = new ArrayList<>();
    private SqlRunStore runs;
    private static final List<String> REGIONS = List.of("eastus", "westus2", "northeurope");
    private RunEngine.Settings settings = new RunEngine.Settings(Duration.ofMillis(1), Duration.ofSeconds(30), 3);
    private final List<String> replanned = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    /** An engine as one process has it: its own connections to the state database and its own lease holder. */
    private RunEngine engine() {
        SqlJobStore jobStore = SqlJobStore.open(state);
        SqlRunStore runStore = SqlRunStore.open(state, clock);
        opened.add(jobStore);
        opened.add(runStore);
        runs = runStore;
        RunListener listener = new RunListener() {
            @Override
            public void event(RunEvent event) {
                heard.add(event);
            }

            @Override
            public void evicted(String runId, String step, Eviction eviction, boolean requeued) {
                evictionsHeard.add(step + (requeued ? " requeued" : " ended"));
            }
        };
        return new RunEngine(runStore, new JobService(jobStore, name -> backend, clock), name -> backend,
                replanner, clock, settings, LeaseHolder.thisProcess(), List.of(listener));
    }

    /** The advisor as the engine sees it: the allowed regions in order, each asked region planned as given. */
    private final RunEngine.Replanner replanner = new RunEngine.Replanner() {
        @Override
        public List<String> regions(Workload workload) {
            return REGIONS;
        }

        @Override
        public Plan plan(Workload workload, boolean onDemand, List<String> regions) {
            replanned.add((onDemand ? "on-demand" : "spot") + " " + regions);
            return RunEngineTest.plan(workload, !onDemand, regions.isEmpty() ? "eastus" : regions.get(0));
        }
    };

    private static Plan plan(Workload workload, boolean spot) {
        return plan(workload, spot, "eastus");
    }

    /** Spot costs more in every region after the first, so a test sees which region an attempt was priced in. */
    private static Plan plan(Workload workload, boolean spot, String region) {
        double price = spot ? 0.02 + 0.01 * REGIONS.indexOf(region) : 0.1;
        return Plan.builder(workload, SIZE).region(region).spot(spot)
                .pricePerHour(new HourlyPrice(price, price, "USD")).build();
    }

    private static WorkflowPlan planned(WorkflowDefinition workflow, boolean spot) {
        List<WorkflowPlan.PlannedStep> steps = new ArrayList<>();
        for (StepDefinition step : workflow.topologicalOrder()) {
            for (StepInstance instance : step.instances()) {
                steps.add(new WorkflowPlan.PlannedStep(step, instance, plan(instance.workload(), spot)));
            }
        }
        return new WorkflowPlan(workflow, steps);
    }

    private static WorkflowDefinition flow(StepDefinition... steps) {
        return new WorkflowDefinition("flow", Map.of(), List.of(steps), 0);
    }

    private static StepDefinition retried(StepDefinition step, int count, Duration backoff) {
        return new StepDefinition(step.name(), step.workload(), step.dependsOn(), new RetryPolicy(count, backoff),
                step.onFailure(), step.timeout(), step.instances());
    }

    private static StepDefinition withWorkload(String name, Workload workload) {
        return new StepDefinition(name, workload, List.of(), RetryPolicy.NONE, FailurePolicy.STOP, Optional.empty(),
                List.of(new StepInstance(name, Map.of(), workload)));
    }

    private static Workload checkpointed() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("python", "train.py")
                .checkpoint(new Checkpoint("/mnt/ckpt", Duration.ofMinutes(5))).build();
    }

    private String key(String runId, String job, int attempt) {
        return runId + "." + job + "." + attempt;
    }

    private Map<String, StepState> states(String runId) {
        Map<String, StepState> states = new java.util.TreeMap<>();
        runs.steps(runId).forEach(step -> states.put(step.name(), step.state()));
        return states;
    }

    private List<String> submittedKeys() {
        return backend.submits.stream().map(SubmitOptions::idempotencyKey).toList();
    }

    @Test
    void aDiamondRunsEachStepOnceDependenciesFirstWithOneStatusCallAPoll() {
        WorkflowDefinition workflow = flow(step("prepare"), step("train", "prepare"), step("eval", "prepare"),
                step("report", "train", "eval"));
        WorkflowPlan plan = planned(workflow, false);
        RunEngine engine = engine();
        RunRecord run = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run();
        String id = run.id();
        assertTrue(id.matches("flow-20261203-100000-[0-9a-f]{6}"), id);

        engine.tick(id, plan);
        assertEquals(List.of(key(id, "prepare", 1)), submittedKeys());
        int callsBefore = backend.statusCalls;
        backend.setAllOpen(JobState.SUCCEEDED);
        engine.tick(id, plan);
        assertEquals(callsBefore + 1, backend.statusCalls, "one status call for every active job of the backend");
        assertEquals(List.of(key(id, "prepare", 1), key(id, "train", 1), key(id, "eval", 1)), submittedKeys());
        backend.set(key(id, "train", 1), JobState.RUNNING);
        engine.tick(id, plan);
        assertEquals(StepState.RUNNING, states(id).get("train"));
        assertEquals(StepState.SUBMITTED, states(id).get("eval"));
        backend.setAllOpen(JobState.SUCCEEDED);
        engine.tick(id, plan);
        backend.setAllOpen(JobState.SUCCEEDED);
        RunRecord done = engine.tick(id, plan);

        assertEquals(RunState.SUCCEEDED, done.state());
        assertEquals(Optional.of("4 of 4 jobs succeeded"), done.message());
        assertEquals(4, backend.made());
        assertEquals(4, backend.submits.size(), "no job was submitted twice");
        assertEquals(Map.of("prepare", StepState.SUCCEEDED, "train", StepState.SUCCEEDED, "eval",
                StepState.SUCCEEDED, "report", StepState.SUCCEEDED), states(id));
        List<RunEvent> history = runs.events(id);
        assertEquals(RunEvent.STARTED, history.get(0).kind());
        assertEquals(RunEvent.ENDED, history.get(history.size() - 1).kind());
        assertEquals("SUCCEEDED: 4 of 4 jobs succeeded", history.get(history.size() - 1).detail());
        assertEquals(history, heard, "the listener heard the whole history, in order");
        for (int i = 0; i < history.size(); i++) {
            assertEquals(i + 1, history.get(i).sequence());
        }
    }

    @Test
    void aFailedStepIsRetriedAfterItsBackoffThenFailsTheRunAndSkipsItsDependents() {
        WorkflowDefinition workflow = flow(retried(step("train"), 2, Duration.ofSeconds(30)),
                step("serve", "train"));
        WorkflowPlan plan = planned(workflow, false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.set(key(id, "train", 1), JobState.FAILED);
        engine.tick(id, plan);
        StepRecord waiting = runs.steps(id).stream().filter(s -> s.name().equals("train")).findFirst().orElseThrow();
        assertEquals(StepState.RETRY_WAIT, waiting.state());
        assertEquals(Optional.of(T0.plusSeconds(30)), waiting.nextAttemptAt());
        assertEquals(Optional.of("attempt 1 failed: exit 3; retry 1 of 2 at 2026-12-03T10:00:30Z"), waiting.reason());

        clock.advance(Duration.ofSeconds(29));
        engine.tick(id, plan);
        assertEquals(1, backend.submits.size(), "not before the backoff has passed");
        clock.advance(Duration.ofSeconds(1));
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "train", 1), key(id, "train", 2)), submittedKeys());
        assertEquals(2, backend.submits.get(1).attempt());
        assertFalse(backend.submits.get(1).resume(), "nothing to resume from without a checkpoint");

        backend.set(key(id, "train", 2), JobState.FAILED);
        engine.tick(id, plan);
        clock.advance(Duration.ofSeconds(59));
        engine.tick(id, plan);
        assertEquals(2, backend.submits.size(), "the second retry waits twice the backoff");
        clock.advance(Duration.ofSeconds(1));
        engine.tick(id, plan);
        backend.set(key(id, "train", 3), JobState.FAILED);
        RunRecord done = engine.tick(id, plan);

        assertEquals(RunState.FAILED, done.state());
        assertEquals(Optional.of("0 of 2 jobs succeeded; failed: train"), done.message());
        assertEquals(Map.of("train", StepState.FAILED, "serve", StepState.SKIPPED), states(id));
        assertEquals(List.of(AttemptOutcome.FAILED, AttemptOutcome.FAILED, AttemptOutcome.FAILED), runs.attempts(id)
                .stream().map(a -> a.outcome().orElseThrow()).toList());
        assertEquals(3, backend.made());
    }

    @Test
    void anEvictedSpotStepResumesFromItsCheckpointWithoutUsingRetriesThenMovesToOnDemand() {
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        for (int attempt = 1; attempt <= 3; attempt++) {
            backend.set(key(id, "train", attempt), JobStatus.of(JobState.PREEMPTED, "spot reclaimed")
                    .withEviction(new Eviction(clock.instant(), "Azure Scheduled Event Preempt")));
            engine.tick(id, plan);
            SubmitOptions next = backend.submits.get(attempt);
            assertEquals(attempt + 1, next.attempt());
            assertTrue(next.resume(), "attempt " + next.attempt() + " resumes from the checkpoint");
        }
        assertEquals(List.of(true, true, true, false), runs.attempts(id).stream().map(AttemptRecord::spot).toList(),
                "after 3 evictions the step runs on on-demand capacity");
        assertFalse(backend.plans.get(key(id, "train", 4)).spot());
        assertEquals(List.of(0.02, 0.02, 0.02, 0.1), runs.attempts(id).stream()
                .map(a -> a.pricePerHour().getAsDouble()).toList(), "each attempt keeps the price it was placed at");
        backend.set(key(id, "train", 4), JobState.SUCCEEDED);
        RunRecord done = engine.tick(id, plan);

        assertEquals(RunState.SUCCEEDED, done.state(), "evictions are not failures: retries were 0");
        StepRecord step = runs.steps(id).get(0);
        assertEquals(4, step.attempts());
        assertEquals(3, step.evictions());
        assertEquals(List.of("train ended", "train ended", "train ended"), evictionsHeard);
    }

    @Test
    void aStepEvictedTooOftenInOneRegionMovesToTheNextAllowedOneThenToOnDemand() {
        settings = new RunEngine.Settings(Duration.ofMillis(1), Duration.ofSeconds(30), 5, 2);
        backend.placesByRegion = true;
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        for (int attempt = 1; attempt <= 5; attempt++) {
            backend.set(key(id, "train", attempt), JobStatus.of(JobState.PREEMPTED, "spot reclaimed")
                    .withEviction(new Eviction(clock.instant(), "Azure Scheduled Event Preempt")));
            engine.tick(id, plan);
        }
        List<String> regions = runs.attempts(id).stream().map(a -> a.region().orElseThrow()).toList();
        assertEquals(List.of("eastus", "eastus", "westus2", "westus2", "northeurope", "eastus"), regions,
                "two evictions in a region move the step to the next allowed one; the fifth in all to on-demand");
        assertEquals(List.of(true, true, true, true, true, false), runs.attempts(id).stream()
                .map(AttemptRecord::spot).toList());
        assertEquals(List.of("westus2", "northeurope"), List.of(backend.plans.get(key(id, "train", 3)).region(),
                backend.plans.get(key(id, "train", 5)).region()), "the backend gets the moved plan");
        assertEquals(List.of(0.02, 0.02, 0.03, 0.03, 0.04, 0.1), runs.attempts(id).stream()
                .map(a -> a.pricePerHour().getAsDouble()).toList(), "each attempt keeps its region's price");
        assertEquals(List.of("spot [westus2, northeurope]", "spot [westus2]", "spot [westus2]", "spot [westus2]",
                "spot [northeurope]", "spot [northeurope]", "on-demand []", "on-demand [eastus]"), replanned,
                "each move chooses among the regions left; a moved attempt is planned again in its region to submit");
        assertTrue(heard.stream().anyMatch(e -> e.detail().equals("evicted 2 time(s) in eastus; attempt 3 moves to "
                + "westus2 (Standard_F2s_v2 on Spot), the best of [westus2, northeurope]")), heard.toString());
        assertEquals(List.of(false, true, true, true, true, true), backend.submits.stream()
                .map(SubmitOptions::resume).toList(), "every later attempt resumes from the checkpoint, wherever");
    }

    @Test
    void aStepStaysInItsRegionOnABackendThatRunsJobsWhereItIsConfigured() {
        settings = new RunEngine.Settings(Duration.ofMillis(1), Duration.ofSeconds(30), 0, 1);
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.set(key(id, "train", 1), JobStatus.of(JobState.PREEMPTED, "spot reclaimed"));
        engine.tick(id, plan);
        assertEquals(List.of("eastus", "eastus"), runs.attempts(id).stream().map(a -> a.region().orElseThrow())
                .toList());
        assertEquals(List.of(), replanned, "nothing planned again");
        assertTrue(heard.stream().anyMatch(e -> e.detail().equals("evicted 1 time(s) in eastus; backend scripted "
                + "runs its jobs where it is configured, not in their plan's region, so the step stays there")),
                heard.toString());
    }

    @Test
    void aStepEvictedInEveryAllowedRegionStaysWhereItIsAndAnInterruptedSubmitKeepsItsRegion() {
        settings = new RunEngine.Settings(Duration.ofMillis(1), Duration.ofSeconds(30), 0, 1);
        backend.placesByRegion = true;
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        for (int attempt = 1; attempt <= 3; attempt++) {
            backend.set(key(id, "train", attempt), JobStatus.of(JobState.PREEMPTED, "spot reclaimed"));
            if (attempt == 3) {
                backend.failAfterCreating = new GantryException(ErrorCode.REMOTE_ERROR, "connection reset");
            }
            engine.tick(id, plan);
        }
        engine.tick(id, plan); // attempt 4 submitted again with its key, where it was recorded to run
        assertEquals(List.of("eastus", "westus2", "northeurope", "northeurope"), runs.attempts(id).stream()
                .map(a -> a.region().orElseThrow()).toList());
        assertTrue(heard.stream().anyMatch(e -> e.detail().equals("evicted 1 time(s) in northeurope; every allowed "
                + "region [eastus, northeurope, westus2] evicted it as often, so the step stays in northeurope")),
                heard.toString());
        assertEquals(List.of(key(id, "train", 4), key(id, "train", 4)), backend.submits.subList(3, 5).stream()
                .map(SubmitOptions::idempotencyKey).toList(), "the interrupted submit was made again, same key");
        assertEquals(List.of("northeurope", "northeurope"), backend.submittedPlans.subList(3, 5).stream()
                .map(Plan::region).toList());
        assertEquals(4, backend.made());
    }

    @Test
    void aRequeuedEvictionIsCountedAndTheSameJobKeptUntilItMovesToOnDemand() {
        backend.evictions = dev.gantry.api.backend.EvictionHandling.REQUEUES;
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        JobStatus status = JobStatus.of(JobState.RUNNING, "running");
        for (int eviction = 1; eviction <= 2; eviction++) {
            status = status.withEviction(new Eviction(clock.instant(), "NODE_FAIL"));
            backend.set(key(id, "train", 1), status);
            engine.tick(id, plan);
            engine.tick(id, plan); // seen once, counted once
            assertEquals(eviction, runs.steps(id).get(0).evictions());
            assertEquals(1, backend.submits.size(), "the orchestrator runs the same job again");
        }
        status = status.withEviction(new Eviction(clock.instant(), "NODE_FAIL"));
        backend.set(key(id, "train", 1), status);
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "train", 1)), backend.cancelled, "the Spot job is cancelled to move it");
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "train", 1), key(id, "train", 2)), submittedKeys());
        assertFalse(backend.plans.get(key(id, "train", 2)).spot());
        assertEquals(List.of(AttemptOutcome.MOVED), runs.attempts(id).stream().limit(1)
                .map(a -> a.outcome().orElseThrow()).toList());
        assertEquals(List.of("train requeued", "train requeued", "train requeued"), evictionsHeard);
    }

    @Test
    void aStatusTheBackendCannotTellNeverStartsARecovery() {
        WorkflowDefinition workflow = flow(withWorkload("train", checkpointed()));
        WorkflowPlan plan = planned(workflow, true);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.set(key(id, "train", 1), JobState.RUNNING);
        engine.tick(id, plan);
        backend.set(key(id, "train", 1), JobStatus.of(JobState.UNKNOWN, "host 10.0.0.4 unreachable"));
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofMinutes(10));
            engine.tick(id, plan);
        }
        assertEquals(1, backend.submits.size());
        StepRecord step = runs.steps(id).get(0);
        assertEquals(StepState.RUNNING, step.state());
        assertEquals(Optional.of("the backend cannot tell where job " + key(id, "train", 1) + " stands: host "
                + "10.0.0.4 unreachable"), step.reason());
    }

    @Test
    void aProcessKilledAfterRecordingTheAttemptIsReplacedWithoutASecondJob() {
        WorkflowDefinition workflow = flow(step("a"), step("b", "a"));
        WorkflowPlan plan = planned(workflow, false);
        RunEngine first = engine();
        String id = first.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        // The backend makes the job, and the process dies before its reply is recorded.
        backend.failAfterCreating = new IllegalStateException("killed");
        assertThrows(IllegalStateException.class, () -> first.tick(id, plan));

        RunEngine second = engine();
        RunEngine.Opened again = second.open(plan, PROVENANCE, "flow.yaml", "scripted");
        assertTrue(again.resumed());
        assertEquals(id, again.run().id(), "the same workflow and spec resume the unfinished run");
        second.tick(id, plan);
        assertEquals(List.of(key(id, "a", 1), key(id, "a", 1)), submittedKeys(), "submitted again with its key");
        assertEquals(1, backend.made(), "and the backend returned the job it had made");
        backend.setAllOpen(JobState.SUCCEEDED);
        second.tick(id, plan);
        backend.setAllOpen(JobState.SUCCEEDED);
        assertEquals(RunState.SUCCEEDED, second.tick(id, plan).state());
        assertEquals(2, backend.made());
    }

    @Test
    void aLostReplyIsSubmittedAgainWithTheSameKeyAtTheNextPoll() {
        WorkflowPlan plan = planned(flow(step("a")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        backend.failAfterCreating = new GantryException(ErrorCode.REMOTE_ERROR, "connection reset");
        engine.tick(id, plan);
        assertEquals(StepState.SUBMITTED, states(id).get("a"));
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "a", 1), key(id, "a", 1)), submittedKeys());
        assertEquals(1, backend.made());
        assertTrue(runs.events(id).stream().anyMatch(e -> e.kind().equals(RunEvent.RETRY)
                && e.detail().contains("connection reset")));
    }

    @Test
    void aRefusedSubmitIsAFailedAttempt() {
        WorkflowPlan plan = planned(flow(step("a")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        backend.refuseNext = new GantryException(ErrorCode.QUOTA_EXCEEDED, "no quota for F2s_v2 in eastus");
        engine.tick(id, plan);
        assertEquals(StepState.FAILED, states(id).get("a"));
        RunRecord run = engine.tick(id, plan);
        assertEquals(RunState.FAILED, run.state(), "the run ends at the next look");
        assertEquals(Optional.of("the backend refused attempt 1: no quota for F2s_v2 in eastus"),
                runs.steps(id).get(0).reason());
    }

    /** A step whose matrix gives {@code count} instances, {@code NAME-0} to {@code NAME-(count-1)}. */
    private static StepDefinition matrix(String name, int count) {
        StepDefinition step = step(name);
        List<StepInstance> instances = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            instances.add(new StepInstance(name + "-" + i, Map.of("I", Integer.toString(i)), step.workload()));
        }
        return new StepDefinition(name, step.workload(), List.of(), RetryPolicy.NONE, FailurePolicy.STOP,
                Optional.empty(), instances);
    }

    @Test
    void everyJobAPassStartsGoesToTheBackendInOneBatchWithItsIntentStoredFirst() {
        WorkflowPlan plan = planned(flow(matrix("sweep", 5), step("single")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        assertEquals(List.of(6), backend.batches, "one submitAll for the six jobs the pass started");
        assertEquals(6, backend.made());
        assertEquals(6, runs.attempts(id).size());
        assertTrue(runs.steps(id).stream().allMatch(s -> s.state() == StepState.SUBMITTED), runs.steps(id)::toString);
    }

    @Test
    void theBackendChecksEachStepOnceNotEachJobOfItsMatrix() {
        WorkflowPlan plan = planned(flow(matrix("sweep", 1000), step("single")), false);
        engine().open(plan, PROVENANCE, "flow.yaml", "scripted");
        assertEquals(2, backend.validated.size(), "one check per step: the matrix's 1,000 jobs share one plan");
    }

    @Test
    void aStepTheBackendRefusesIsNamedWithItsMatrixAndNothingIsRecorded() {
        WorkflowPlan plan = planned(flow(matrix("sweep", 3)), false);
        backend.problems = List.of(Problem.of("resources.gpus", "no host has 8 GPUs"));
        GantryException e = assertThrows(GantryException.class,
                () -> engine().open(plan, PROVENANCE, "flow.yaml", "scripted"));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().contains("step 'sweep-0' (and the 2 other jobs of its matrix): resources.gpus"),
                e.getMessage());
        assertEquals(List.of(), runs.list(10, true), "nothing recorded");
    }

    @Test
    void aBatchTheBackendRefusesIsSubmittedAgainJobByJobSoOnlyTheRefusedJobFails() {
        WorkflowPlan plan = planned(flow(matrix("sweep", 3)), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        backend.refusedKeys.put(key(id, "sweep-1", 1), new GantryException(ErrorCode.PLAN_REJECTED,
                "no such partition"));
        engine.tick(id, plan);
        assertEquals(Map.of("sweep-0", StepState.SUBMITTED, "sweep-1", StepState.FAILED, "sweep-2",
                StepState.SUBMITTED), states(id));
        assertEquals(2, backend.made(), "the jobs the batch made were found again by their keys, not made twice");
        assertEquals(Optional.of("the backend refused attempt 1: no such partition"),
                runs.steps(id).stream().filter(s -> s.name().equals("sweep-1")).findFirst().orElseThrow().reason());
    }

    @Test
    void aStepThatRunsPastItsTimeoutIsCancelledAndCountsAsAFailure() {
        StepDefinition slow = step("slow");
        slow = new StepDefinition("slow", slow.workload(), List.of(), new RetryPolicy(1, Duration.ZERO),
                FailurePolicy.STOP, Optional.of(Duration.ofMinutes(10)), slow.instances());
        WorkflowPlan plan = planned(flow(slow), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.set(key(id, "slow", 1), new JobStatus(JobState.RUNNING, OptionalInt.empty(), "running",
                Optional.of(T0.plusSeconds(60)), Optional.empty()));
        clock.advance(Duration.ofMinutes(11));
        engine.tick(id, plan);
        assertEquals(List.of(), backend.cancelled, "counted from when it started, not submitted");
        clock.advance(Duration.ofSeconds(1));
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "slow", 1)), backend.cancelled, "counted from when it started, not submitted");
        clock.advance(Duration.ofMinutes(1));
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "slow", 1)), backend.cancelled);
        assertEquals(List.of(AttemptOutcome.TIMED_OUT), runs.attempts(id).stream().limit(1)
                .map(a -> a.outcome().orElseThrow()).toList());
        assertEquals(2, backend.submits.size(), "the timeout used the step's one retry");
    }

    @Test
    void aCancelAskedByAnotherProcessIsCarriedOutByTheDriver() {
        WorkflowPlan plan = planned(flow(step("a"), step("b"), step("c", "a")), false);
        RunEngine driver = engine();
        String id = driver.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        assertTrue(runs.acquireLease(id, "someone-else", Duration.ofMinutes(5)).isPresent());
        driver.tick(id, plan);
        RunEngine other = engine();
        RunRecord asked = other.cancel(id, plan);
        assertEquals(RunState.RUNNING, asked.state(), "the live driver holds the lease: it cancels");
        RunRecord done = driver.tick(id, plan);
        assertEquals(RunState.CANCELLED, done.state());
        assertEquals(Set.of(key(id, "a", 1), key(id, "b", 1)), Set.copyOf(backend.cancelled));
        assertEquals(Map.of("a", StepState.CANCELLED, "b", StepState.CANCELLED, "c", StepState.SKIPPED), states(id));
    }

    @Test
    void aCancelWithNoLiveDriverIsCarriedOutAtOnce() {
        WorkflowPlan plan = planned(flow(step("a")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        assertEquals(RunState.CANCELLED, engine().cancel(id, plan).state());
        assertEquals(List.of(key(id, "a", 1)), backend.cancelled);
    }

    @Test
    void aPlanTheBackendRejectsRecordsAndSubmitsNothing() {
        backend.problems = List.of(Problem.of("image", "no such image on the cluster"));
        WorkflowPlan plan = planned(flow(step("a"), step("b", "a")), false);
        GantryException e = assertThrows(GantryException.class, () -> engine().open(plan, PROVENANCE, "flow.yaml",
                "scripted"));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("backend 'scripted' cannot run workflow 'flow'; nothing was submitted:\n"
                + "step 'a': "), e.getMessage());
        assertEquals(List.of(), runs.list(10, true));
        assertEquals(0, backend.submits.size());
    }

    @Test
    void aRunDrivenByALiveProcessIsNotDrivenBySecond() throws Exception {
        WorkflowPlan plan = planned(flow(step("a")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        String live = ProcessHandle.current().pid() + "@" + java.net.InetAddress.getLocalHost().getHostName()
                + "/other";
        assertTrue(runs.acquireLease(id, live, Duration.ofMinutes(5)).isPresent());
        GantryException e = assertThrows(GantryException.class, () -> engine.drive(id, plan, Duration.ofSeconds(1)));
        assertEquals("run " + id + " is being driven by process " + live + "; follow it with 'gantry attach " + id
                + "' or 'gantry status " + id + "'", e.getMessage());

        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String dead = gone.pid() + "@" + java.net.InetAddress.getLocalHost().getHostName() + "/dead";
        assertTrue(runs.releaseLease(id, live));
        assertTrue(runs.acquireLease(id, dead, Duration.ofMinutes(5)).isPresent());
        Thread finisher = new Thread(() -> {
            while (backend.made() == 0) {
                Thread.onSpinWait();
            }
            backend.setAllOpen(JobState.SUCCEEDED);
        });
        finisher.start();
        assertEquals(RunState.SUCCEEDED, engine.drive(id, plan, Duration.ofSeconds(20)).state(),
                "a lease whose holder died on this machine is taken over at once");
        finisher.join();
        assertEquals(Optional.empty(), runs.lease(id), "released when done");
    }

    @Test
    void onABackendThatOrdersJobsItselfADependentIsSubmittedBehindItsActiveDependency() {
        backend.nativeDependencies = true;
        WorkflowPlan plan = planned(flow(step("a"), step("b", "a"), retried(step("c"), 1, Duration.ZERO),
                step("d", "c")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "a", 1), key(id, "c", 1)), submittedKeys());
        engine.tick(id, plan);
        assertEquals(List.of(key(id, "a", 1), key(id, "c", 1), key(id, "b", 1)), submittedKeys(),
                "b waits in the orchestrator; d does not, since c may be retried as another job");
        assertEquals(List.of(JobDependency.afterSuccess(new JobRef("scripted", "n-" + key(id, "a", 1)))),
                backend.submits.get(2).dependencies());
        assertTrue(runs.events(id).stream().anyMatch(e -> e.detail().endsWith("started by the orchestrator once 1 "
                + "job(s) it depends on succeed")));
        backend.setAllOpen(JobState.SUCCEEDED);
        engine.tick(id, plan);
        assertEquals(List.of(), backend.submits.get(3).dependencies(), "d goes once c succeeded, with none");
    }

    @Test
    void aJobTheOrchestratorNeverStartedBecauseItsDependencyFailedIsSkipped() {
        backend.nativeDependencies = true;
        StepDefinition a = step("a");
        a = new StepDefinition("a", a.workload(), List.of(), RetryPolicy.NONE, FailurePolicy.CONTINUE,
                Optional.empty(), a.instances());
        WorkflowPlan plan = planned(flow(a, step("b", "a"), step("c")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        engine.tick(id, plan);
        backend.set(key(id, "a", 1), JobState.FAILED);
        backend.set(key(id, "b", 1), JobStatus.of(JobState.CANCELLED, "DependencyNeverSatisfied"));
        backend.set(key(id, "c", 1), JobState.SUCCEEDED);
        engine.tick(id, plan);
        assertEquals(Map.of("a", StepState.FAILED, "b", StepState.SKIPPED, "c", StepState.SUCCEEDED), states(id));
        assertEquals(Optional.of("step a did not succeed, so the orchestrator never started job " + key(id, "b", 1)),
                runs.steps(id).stream().filter(s -> s.name().equals("b")).findFirst().orElseThrow().reason());
        assertEquals(RunState.FAILED, engine.tick(id, plan).state());
    }

    @Test
    void aStepsPublishedOutputReachesTheEnvironmentOfAStepAfterIt() {
        Workload train = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("train")
                .build();
        Workload serve = Workload.builder("serve").phase(Phase.INFERENCE).model(ModelClass.SMALL).command("serve")
                .env("MODEL", "${steps.train.outputs.MODEL_URI}").env("NOTE", "from ${steps.train.outputs.MODEL_URI}!")
                .build();
        StepDefinition producer = new StepDefinition("train", train, List.of(), RetryPolicy.NONE, FailurePolicy.STOP,
                Optional.empty(), List.of(new StepInstance("train", Map.of(), train)), List.of("MODEL_URI"));
        StepDefinition consumer = new StepDefinition("serve", serve, List.of("train"), RetryPolicy.NONE,
                FailurePolicy.STOP, Optional.empty(), List.of(new StepInstance("serve", Map.of(), serve)));
        WorkflowPlan plan = planned(flow(producer, consumer), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.output.put(key(id, "train", 1), List.of("epoch 1", "gantry-output MODEL_URI=blob://old",
                "gantry-output MODEL_URI=blob://models/7"));
        backend.set(key(id, "train", 1), JobState.SUCCEEDED);
        engine.tick(id, plan);
        assertEquals(Map.of("MODEL", "blob://models/7", "NOTE", "from blob://models/7!"),
                backend.plans.get(key(id, "serve", 1)).workload().env(), "the last line of a name wins");
        assertTrue(runs.events(id).stream().anyMatch(e -> e.kind().equals(RunEvent.OUTPUT)
                && e.detail().equals("MODEL_URI=blob://models/7")));
    }

    @Test
    void aDeclaredOutputTheStepDidNotPublishFailsItsAttempt() {
        Workload train = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL).command("train")
                .build();
        StepDefinition producer = new StepDefinition("train", train, List.of(), RetryPolicy.NONE, FailurePolicy.STOP,
                Optional.empty(), List.of(new StepInstance("train", Map.of(), train)), List.of("MODEL_URI"));
        WorkflowPlan plan = planned(flow(producer), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.output.put(key(id, "train", 1), List.of("done"));
        backend.set(key(id, "train", 1), JobState.SUCCEEDED);
        engine.tick(id, plan);
        StepRecord step = runs.steps(id).get(0);
        assertEquals(StepState.FAILED, step.state());
        assertEquals(Optional.of("attempt 1 exited 0 but published no MODEL_URI; a step publishes an output by "
                + "printing 'gantry-output MODEL_URI=VALUE' on standard output or by writing 'MODEL_URI=VALUE' to the "
                + "file $GANTRY_OUTPUTS"), step.reason());
    }

    @Test
    void aPollTheBackendCannotAnswerIsTriedAgainAndSaidOnce() throws Exception {
        WorkflowPlan plan = planned(flow(step("a")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        backend.failStatuses = 3;
        Thread finisher = new Thread(() -> {
            while (backend.statusCallsSoFar() < 4) {
                Thread.onSpinWait();
            }
            backend.setAllOpen(JobState.SUCCEEDED);
        });
        finisher.start();
        assertEquals(RunState.SUCCEEDED, engine.drive(id, plan, Duration.ofSeconds(20)).state());
        finisher.join();
        assertEquals(List.of("login node 10.0.0.4 does not answer; trying again at each poll"), runs.events(id)
                .stream().filter(e -> e.kind().equals(RunEvent.POLL_FAILED)).map(RunEvent::detail).toList());
    }

    /** The job is running since now, as the backend says: the cost table counts it from here. */
    private void runningSinceNow(String key) {
        backend.set(key, new JobStatus(JobState.RUNNING, OptionalInt.empty(), "", Optional.of(clock.instant()),
                Optional.empty()));
    }

    private static WorkflowDefinition withBudget(WorkflowDefinition workflow, double maxTotal) {
        return new WorkflowDefinition(workflow.name(), workflow.labels(), workflow.steps(), workflow.parallelism(),
                Optional.of(Budget.total(maxTotal)));
    }

    private List<String> details(String runId, String kind) {
        return runs.events(runId).stream().filter(e -> e.kind().equals(kind)).map(RunEvent::detail).toList();
    }

    @Test
    void aRunIsWarnedOnceAt80PercentOfItsBudgetAcrossStepsAndStoppedAtItFailedWithItsCostTable() {
        // $0.1/h on-demand: prepare runs 5 h ($0.5), then train 5 h more reaches the run's $1.
        WorkflowPlan plan = planned(withBudget(flow(step("prepare"), step("train", "prepare"),
                step("report", "train")), 1), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        Instant started = clock.instant();
        runningSinceNow(key(id, "prepare", 1));
        engine.tick(id, plan);
        clock.advance(Duration.ofHours(5));
        backend.set(key(id, "prepare", 1), new JobStatus(JobState.SUCCEEDED, OptionalInt.of(0), "",
                Optional.of(started), Optional.of(clock.instant())));
        engine.tick(id, plan);
        runningSinceNow(key(id, "train", 1));
        engine.tick(id, plan);
        clock.advance(Duration.ofHours(3));
        engine.tick(id, plan);
        assertEquals(List.of("80% of the budget: $0.8 of $1, the run's budget ($0.8 spent, $0 due by the next poll "
                + "from 1 running job); at $1 Gantry cancels the active jobs and ends the run FAILED"),
                details(id, RunEvent.BUDGET_WARNING));
        assertTrue(heard.stream().anyMatch(e -> e.kind().equals(RunEvent.BUDGET_WARNING)), "listeners hear it");
        clock.advance(Duration.ofHours(1));
        engine.tick(id, plan);
        // A driver that takes the run over reads the warning from its history and does not give it again.
        RunEngine successor = engine();
        successor.tick(id, plan);
        assertEquals(1, details(id, RunEvent.BUDGET_WARNING).size(), "warned once: " + details(id,
                RunEvent.BUDGET_WARNING));
        assertEquals(RunState.RUNNING, runs.find(id).orElseThrow().state());

        clock.advance(Duration.ofHours(1));
        RunRecord done = successor.tick(id, plan);

        assertEquals(RunState.FAILED, done.state());
        assertEquals(Optional.of("budget reached: $1 of $1"), done.message());
        assertEquals(List.of("budget reached: $1 of $1, the run's budget ($1 spent, $0 due by the next poll from 1 "
                + "running job); cancelling the active jobs and skipping those not started; cost by job: prepare "
                + "$0.5 (succeeded, 1 attempt), train $0.5 (running, 1 attempt)"), details(id, RunEvent.BUDGET_REACHED));
        assertEquals(List.of(key(id, "train", 1)), backend.cancelled);
        assertEquals(Map.of("prepare", StepState.SUCCEEDED, "train", StepState.CANCELLED, "report", StepState.SKIPPED),
                states(id));
        assertEquals(2, backend.made(), "nothing is submitted once the budget is reached");
    }

    @Test
    void aDriverThatTakesOverARunWhoseBudgetWasReachedGoesOnStoppingItThoughTheSpendNowReadsLess() {
        WorkflowPlan plan = planned(withBudget(flow(step("a"), step("b", "a")), 1), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        runningSinceNow(key(id, "a", 1));
        engine.tick(id, plan);
        // What a driver killed right after storing the stop leaves: the event, and the job still running.
        runs.append(List.of(RunEvent.ofRun(id, clock.instant(), RunEvent.BUDGET_REACHED, "budget reached: $1.2 of $1, "
                + "the run's budget ($0.9 spent, $0.3 due by the next poll from 1 running job)")));

        RunRecord done = engine().tick(id, plan);

        assertEquals(RunState.FAILED, done.state());
        assertEquals(Optional.of("budget reached: $1.2 of $1"), done.message());
        assertEquals(List.of(key(id, "a", 1)), backend.cancelled);
        assertEquals(Map.of("a", StepState.CANCELLED, "b", StepState.SKIPPED), states(id));
    }

    @Test
    void aStepsOwnBudgetFailsThatStepWithoutARetryAndTheWorkflowsOnFailureApplies() {
        Workload capped = Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .command("python", "train.py").budget(Budget.total(0.2)).build();
        WorkflowPlan plan = planned(flow(retried(withWorkload("train", capped), 2, Duration.ZERO),
                step("report", "train")), false);
        RunEngine engine = engine();
        String id = engine.open(plan, PROVENANCE, "flow.yaml", "scripted").run().id();
        engine.tick(id, plan);
        runningSinceNow(key(id, "train", 1));
        engine.tick(id, plan);
        clock.advance(Duration.ofMinutes(100)); // $0.1667 of $0.2
        engine.tick(id, plan);
        assertEquals(List.of("80% of the budget: $0.1667 of $0.2, the budget of step train ($0.1667 spent, $0 due by "
                + "the next poll from 1 running job); at $0.2 Gantry cancels the step's job and fails the step"),
                details(id, RunEvent.BUDGET_WARNING));
        clock.advance(Duration.ofMinutes(20));

        RunRecord done = engine.tick(id, plan);

        assertEquals(List.of(key(id, "train", 1)), backend.cancelled);
        StepRecord train = runs.steps(id).stream().filter(s -> s.name().equals("train")).findFirst().orElseThrow();
        assertEquals(StepState.FAILED, train.state());
        assertEquals(Optional.of("budget reached: $0.2 of $0.2"), train.reason());
        assertEquals(1, backend.made(), "no retry and no dependent: a retry would spend past the budget");
        assertEquals(StepState.SKIPPED, states(id).get("report"));
        assertEquals(RunState.FAILED, done.state());
    }

    @Test
    void longKeysStayWithinTheLimitAndApart() {
        String run = "w".repeat(63) + "-20261203-100000-abcdef";
        String a = RunEngine.jobId(run, "s".repeat(60) + "-x", 1);
        String b = RunEngine.jobId(run, "s".repeat(60) + "-y", 1);
        assertTrue(a.length() <= 128 && b.length() <= 128, a);
        assertFalse(a.equals(b));
        assertEquals(RunEngine.jobId(run, "s".repeat(60) + "-x", 1), a, "the same for every process");
        assertTrue(RunEngine.jobId(run, "s".repeat(60) + "-x", 2).endsWith(".2"));
    }
}
