package dev.gantry.benchmarks;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.runs.jobs.JobService;
import dev.gantry.runs.engine.LeaseHolder;
import dev.gantry.runs.engine.RunEngine;
import dev.gantry.model.RunProvenance;
import dev.gantry.model.RunRecord;
import dev.gantry.model.StepDefinition;
import dev.gantry.model.StepInstance;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.runs.state.SqlJobStore;
import dev.gantry.runs.state.SqlRunStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one poll of a large workflow costs: a workflow of N independent steps (default 1,000) driven by the real
 * {@link RunEngine} on the SQLite state store, against a backend that answers from memory and counts its calls. After
 * the first pass submits every job, each further pass must cost one status call for the backend, whatever N is; the
 * time a pass takes is the engine's and the store's own (the backend answers at once).
 *
 * <p>Usage: {@code RunPollBenchmark [STEPS]}
 */
public final class RunPollBenchmark {
    private RunPollBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        Path state = Files.createTempDirectory("gantry-run-poll");
        CountingBackend backend = new CountingBackend();
        Workload workload = Workload.builder("job").phase(Phase.TRAINING).model(ModelClass.SMALL).command("true")
                .build();
        List<StepDefinition> definitions = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            definitions.add(StepDefinition.of(String.format(Locale.ROOT, "s%04d", i), workload, List.of()));
        }
        WorkflowDefinition workflow = new WorkflowDefinition("wide", Map.of(), definitions, 0);
        VmSize size = new VmSize("Standard_F2s_v2", "F", 2, 4, Optional.empty(), false, Architecture.X64,
                Set.of("V1", "V2"));
        List<WorkflowPlan.PlannedStep> planned = new ArrayList<>();
        for (StepDefinition step : workflow.steps()) {
            StepInstance instance = step.instances().get(0);
            planned.add(new WorkflowPlan.PlannedStep(step, instance, Plan.builder(instance.workload(), size)
                    .region("eastus").build()));
        }
        WorkflowPlan plan = new WorkflowPlan(workflow, planned);
        Clock clock = Clock.systemUTC();
        WorkCheck check = new WorkCheck();
        try (SqlJobStore jobs = SqlJobStore.open(state); SqlRunStore runs = SqlRunStore.open(state, clock)) {
            RunEngine engine = new RunEngine(runs, new JobService(jobs, name -> backend, clock), name -> backend,
                    RunEngine.Replanner.asPlanned(), clock, new RunEngine.Settings(Duration.ofSeconds(1),
                    Duration.ofMinutes(2), 3), LeaseHolder.thisProcess(), List.of());
            RunRecord run = engine.open(plan, new RunProvenance("sha256:bench", Optional.empty(), Optional.empty(),
                    "embedded", LocalDate.parse("2026-11-29"), "bench"), "wide.yaml", "counting").run();
            long start = System.nanoTime();
            engine.tick(run.id(), plan);
            System.out.printf(Locale.ROOT, "pass 1 (submits %d jobs): %.3f s, %d submit calls%n", steps,
                    (System.nanoTime() - start) / 1e9, backend.submits);
            check.count("pass 1: jobs the backend was asked to start", steps, backend.jobs.size());
            List<Double> seconds = new ArrayList<>();
            List<Integer> calls = new ArrayList<>();
            for (int pass = 2; pass <= 6; pass++) {
                if (pass == 4) {
                    backend.moveAll(JobState.RUNNING); // a state change on every step: each is written
                }
                int before = backend.statusCalls;
                backend.lastAsked = Set.of();
                backend.lastAnswered = 0;
                start = System.nanoTime();
                engine.tick(run.id(), plan);
                double took = (System.nanoTime() - start) / 1e9;
                seconds.add(took);
                calls.add(backend.statusCalls - before);
                // The one call must have been for every job, and answered for each: a poll of fewer is no figure.
                check.count("pass " + pass + ": jobs the status call asked about", steps, backend.lastAsked.size());
                check.count("pass " + pass + ": jobs it answered for", steps, backend.lastAnswered);
                System.out.printf(Locale.ROOT, "pass %d (%d active jobs%s): %.3f s, %d status call(s)%n", pass,
                        steps, pass == 4 ? ", all seen RUNNING" : "", took, backend.statusCalls - before);
            }
            boolean one = calls.stream().allMatch(c -> c == 1);
            System.out.printf(Locale.ROOT, "target: the status of a %d-step workflow costs one backend status call "
                    + "per backend per poll: %s calls a poll: %s; a poll takes %.3f s (median)%n", steps, calls,
                    one ? "met" : "NOT met", seconds.stream().sorted().toList().get(seconds.size() / 2));
        } finally {
            try (var paths = Files.walk(state)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
        check.exitIfFailed("RunPollBenchmark");
    }

    /** Answers from memory at once, counting submit and status calls. */
    private static final class CountingBackend implements Backend {
        private final Map<String, JobState> jobs = new LinkedHashMap<>();
        int submits;
        int statusCalls;
        /** The jobs the last status call asked about, and for how many of them it answered. */
        Set<String> lastAsked = Set.of();
        int lastAnswered;

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.builder().gpuVendors(Set.of(GpuVendor.NVIDIA)).build();
        }

        @Override
        public List<Problem> validate(Plan plan) {
            return List.of();
        }

        @Override
        public JobRef submit(Plan plan, SubmitOptions options) {
            submits++;
            jobs.putIfAbsent(options.idempotencyKey(), JobState.PENDING);
            return new JobRef("counting", options.idempotencyKey());
        }

        void moveAll(JobState state) {
            jobs.replaceAll((k, v) -> state);
        }

        @Override
        public JobStatus status(JobRef job) {
            return JobStatus.of(jobs.get(job.id()), "");
        }

        @Override
        public Map<JobRef, JobStatus> statuses(Collection<JobRef> refs) {
            statusCalls++;
            Map<JobRef, JobStatus> result = new LinkedHashMap<>();
            refs.forEach(ref -> result.put(ref, status(ref)));
            lastAsked = refs.stream().map(JobRef::id).filter(jobs::containsKey).collect(Collectors.toSet());
            lastAnswered = (int) result.keySet().stream().filter(ref -> jobs.containsKey(ref.id())).count();
            return result;
        }

        @Override
        public void logs(JobRef job, LogOptions options, LogSink sink) {
        }

        @Override
        public void cancel(JobRef job) {
        }

        @Override
        public void close() {
        }
    }
}
