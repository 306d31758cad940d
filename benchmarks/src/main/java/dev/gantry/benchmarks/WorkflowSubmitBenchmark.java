package dev.gantry.benchmarks;

import static dev.gantry.benchmarks.TestClusterBench.context;
import static dev.gantry.benchmarks.TestClusterBench.exec;
import static dev.gantry.benchmarks.TestClusterBench.lines;
import static dev.gantry.benchmarks.TestClusterBench.seconds;

import dev.gantry.Gantry;
import dev.gantry.Runs;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.model.StepState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A workflow whose one step is a 1,000-job matrix, run with {@code gantry run} on the real Slurm test cluster of
 * scripts/test-cluster.sh, beside the same 1,000 jobs submitted through {@code Backend.submitAll} directly, in one
 * run. It drives the facade as the CLI does ({@code Gantry.runs().start}, then {@code drive} for one pass) and
 * measures from the start to every job submitted; sbatch is reached through a wrapper that counts its runs.
 * Targets (printed, with whether each holds): at most 10 sbatch calls for the workflow's 1,000 jobs, and the
 * workflow's time to every job submitted at most twice the direct submitAll's. It then checks that every job of both
 * exists in Slurm (squeue lists its id), and exits 1 when one does not. Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-cluster.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.WorkflowSubmitBenchmark 1000
 * </pre>
 */
public final class WorkflowSubmitBenchmark {
    private static final List<String> COMMANDS = List.of("sbatch", "squeue", "scancel", "scontrol", "sinfo", "srun");
    private static final int MAX_SBATCH = 10;
    private static final double MAX_RATIO = 2.0;

    private WorkflowSubmitBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        if (jobs % 25 != 0) {
            throw new IllegalArgumentException("the matrix is 25 values wide: give a multiple of 25, not " + jobs);
        }
        TestClusterBench.Run bench = TestClusterBench.Run.start(COMMANDS, "sbatch");
        Map<String, String> env = bench.env();
        String nodes = env.get("SLURM_NODES").replace(' ', ',');
        boolean ok;
        try {
            // Submission alone is measured: no job starts (and competes for the CPUs) while the nodes are drained.
            exec(List.of("scontrol", "update", "nodename=" + nodes, "state=drain", "reason=gantry-benchmark"));
            Submitted direct = direct(bench, jobs);
            ok = exist("direct submitAll", direct.slurmIds(), bench.user());
            cancelAll(bench.user());
            Submitted workflow = workflow(bench, jobs);
            ok &= exist("gantry run", workflow.slurmIds(), bench.user());
            double ratio = workflow.seconds() / direct.seconds();
            System.out.printf(Locale.ROOT, "%d jobs: Backend.submitAll directly %.2f s (%d sbatch) | gantry run of a "
                    + "%d-job matrix to every job submitted %.2f s (%d sbatch), %.2f times the direct%n", jobs,
                    direct.seconds(), direct.sbatch(), jobs, workflow.seconds(), workflow.sbatch(), ratio);
            System.out.printf(Locale.ROOT, "target: the workflow's %d jobs in at most %d sbatch calls: %d: %s%n", jobs,
                    MAX_SBATCH, workflow.sbatch(), workflow.sbatch() <= MAX_SBATCH ? "met" : "NOT met");
            System.out.printf(Locale.ROOT, "target: gantry run to every job submitted at most %.0f times the direct "
                    + "submitAll: %.2f: %s%n", MAX_RATIO, ratio, ratio <= MAX_RATIO ? "met" : "NOT met");
        } finally {
            exec(List.of("scancel", "-u", bench.user()));
            exec(List.of("scontrol", "update", "nodename=" + nodes, "state=resume"));
            exec(List.of("rm", "-rf", bench.root().toString()));
        }
        System.exit(ok ? 0 : 1);
    }

    /** What one way of submitting took, how many sbatch runs, and the Slurm id each of its jobs recorded. */
    private record Submitted(double seconds, long sbatch, List<String> slurmIds) {
    }

    /** The jobs through {@code submitAll}, as the matrix's would be: one plan, each job its own key and values. */
    private static Submitted direct(TestClusterBench.Run bench, int jobs) throws Exception {
        Map<String, String> settings = bench.settings();
        try (Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", settings),
                context(bench.root()))) {
            Plan plan = TestClusterBench.plan();
            long connect = System.nanoTime();
            backend.validate(plan); // connects and probes the cluster once, as the workflow's open does; not measured
            System.out.printf(Locale.ROOT, "direct: connecting to the login node and probing the cluster %.2f s (not "
                    + "counted in the direct figure; gantry run's start includes it)%n", seconds(connect));
            List<Submission> submissions = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                Plan each = plan.withWorkload(Workload.builder("s-a" + i / 25 + "-b" + i % 25).phase(Phase.TRAINING)
                        .model(ModelClass.SMALL).command("true").env(Map.of("A", "a" + i / 25, "B", "b" + i % 25))
                        .build());
                submissions.add(new Submission(each, SubmitOptions.withKey(bench.id() + "-direct-" + i)));
            }
            long before = lines(bench.counter());
            long start = System.nanoTime();
            backend.submitAll(submissions);
            double took = seconds(start);
            List<String> ids = new ArrayList<>();
            for (Submission submission : submissions) {
                ids.add(slurmId(Path.of(settings.get("workDir")), "job-" + submission.options().idempotencyKey()));
            }
            return new Submitted(took, lines(bench.counter()) - before, ids);
        }
    }

    /** The workflow through the facade, as {@code gantry run} drives it: started, then driven for one pass. */
    private static Submitted workflow(TestClusterBench.Run bench, int jobs) throws Exception {
        Path dir = Files.createDirectories(bench.root().resolve("gantry"));
        Map<String, String> settings = bench.settings();
        StringBuilder config = new StringBuilder("backend: cyclecloud\nbackends:\n  cyclecloud:\n");
        settings.forEach((key, value) -> config.append("    ").append(key).append(": '").append(value)
                .append("'\n"));
        config.append("state:\n  dir: '").append(dir.resolve("state")).append("'\nruns:\n  maxJobs: ")
                .append(Math.max(jobs, 10_000)).append('\n');
        Files.writeString(dir.resolve("gantry.yaml"), config.toString());
        Path spec = dir.resolve("sweep.yaml");
        Files.writeString(spec, "apiVersion: gantry.dev/v1\nkind: Workflow\nmetadata: {name: sweep}\nspec:\n  steps:\n"
                + "    - name: s\n      matrix:\n        A: [" + values("a", jobs / 25) + "]\n        B: ["
                + values("b", 25) + "]\n      workload: {phase: training, model: small, command: ['true']}\n");
        try (Gantry gantry = Gantry.builder().environment(Map.of()).workingDirectory(dir).home(dir).build()) {
            long before = lines(bench.counter());
            long start = System.nanoTime();
            Runs.Started started = gantry.runs().start(spec);
            double opened = seconds(start);
            gantry.runs().drive(started.run().id(), Duration.ofMillis(1), List.of());
            double took = seconds(start);
            System.out.printf(Locale.ROOT, "gantry run: started (spec read, %d jobs planned and validated, the run "
                    + "recorded) in %.2f s, its first pass (every job recorded and submitted) %.2f s%n", jobs, opened,
                    took - opened);
            long sbatch = lines(bench.counter()) - before;
            List<String> ids = new ArrayList<>();
            int submitted = 0;
            for (var step : gantry.runs().status(started.run().id()).steps()) {
                submitted += step.state() == StepState.SUBMITTED ? 1 : 0;
            }
            if (submitted != jobs) {
                System.out.printf(Locale.ROOT, "gantry run: %d of %d jobs submitted after its first pass%n",
                        submitted, jobs);
            }
            try (var paths = Files.list(Path.of(settings.get("workDir")))) {
                for (Path job : paths.filter(p -> p.getFileName().toString().startsWith("job-sweep-")).toList()) {
                    ids.add(slurmId(job.getParent(), job.getFileName().toString()));
                }
            }
            return new Submitted(took, sbatch, ids);
        }
    }

    private static String values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.joining(", "));
    }

    private static String slurmId(Path workDir, String id) throws Exception {
        Path file = workDir.resolve(id).resolve("slurm-id");
        return Files.isReadable(file) ? Files.readString(file).strip().split(";", 2)[0] : "";
    }

    /** Whether Slurm lists every id (and there is one per job); says which are missing when not. */
    private static boolean exist(String what, List<String> ids, String user) throws Exception {
        Set<String> listed = new HashSet<>(exec(List.of("squeue", "-h", "-r", "-t", "all", "-u", user, "-o", "%i"))
                .lines().map(String::strip).toList());
        List<String> missing = ids.stream().filter(id -> id.isEmpty() || !listed.contains(id)).toList();
        System.out.printf(Locale.ROOT, "%s: %d jobs, every one listed by squeue: %s%n", what, ids.size(),
                missing.isEmpty() ? "yes" : "NO, missing " + missing.size() + " (" + missing.stream().limit(5)
                        .collect(Collectors.joining(", ")) + ")");
        return missing.isEmpty() && !ids.isEmpty();
    }

    /** Cancels the user's jobs and waits until Slurm lists none pending. */
    private static void cancelAll(String user) throws Exception {
        exec(List.of("scancel", "-u", user));
        for (int i = 0; i < 600 && !exec(List.of("squeue", "-h", "-t", "PD,R,CG,CF")).isBlank(); i++) {
            Thread.sleep(500);
        }
    }
}
