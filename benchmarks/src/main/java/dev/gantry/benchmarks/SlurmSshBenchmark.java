package dev.gantry.benchmarks;

import static dev.gantry.benchmarks.TestClusterBench.context;
import static dev.gantry.benchmarks.TestClusterBench.exec;
import static dev.gantry.benchmarks.TestClusterBench.jobDirectories;
import static dev.gantry.benchmarks.TestClusterBench.measurePolls;
import static dev.gantry.benchmarks.TestClusterBench.plan;
import static dev.gantry.benchmarks.TestClusterBench.seconds;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CycleCloud backend against the real Slurm test cluster of scripts/test-cluster.sh, in one run:
 * <ol>
 *   <li>submissions per second of a local {@code sbatch --wrap true} loop on the controller machine (the floor);</li>
 *   <li>the same number of one-node jobs through Gantry over one SSH connection to the login node, one
 *       {@code submit} each;</li>
 *   <li>the same through one {@code submitAll} (one remote command per 100 jobs): jobs that differ only in
 *       their key, which go as Slurm job arrays, and jobs that each run their own command, one sbatch each;</li>
 *   <li>remote commands and scheduler commands (squeue runs, counted by a wrapper Slurm's commands are reached
 *       through) per status poll while tracking 1 and 1,000 jobs, and the poll's latency.</li>
 * </ol>
 * Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-cluster.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.SlurmSshBenchmark 200 20
 * </pre>
 */
public final class SlurmSshBenchmark {
    private static final List<String> COMMANDS = List.of("sbatch", "squeue", "scancel", "scontrol", "sinfo", "srun");

    private SlurmSshBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int submits = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        TestClusterBench.Run bench = TestClusterBench.Run.start(COMMANDS, "squeue");
        Map<String, String> env = bench.env();
        String run = bench.id();
        Path root = bench.root();
        Path counter = bench.counter();
        Map<String, String> config = bench.settings();
        BackendContext context = context(root);
        Plan plan = plan();
        System.out.printf(Locale.ROOT, "Slurm over SSH to %s:%s, %d submits, %d polls%n", env.get("LOGIN_ADDRESS"),
                env.get("LOGIN_PORT"), submits, polls);

        WorkCheck check = new WorkCheck();
        try (Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", config),
                context)) {
            backend.validate(plan); // connects and probes the cluster once; not measured
            // Submission alone is measured: the nodes are drained, so no job starts (and competes with sbatch for
            // the two CPUs and the controller) while any of the three is measured; each round's jobs are cancelled.
            exec(List.of("scontrol", "update", "nodename=" + env.get("SLURM_NODES").replace(' ', ','), "state=drain",
                    "reason=gantry-benchmark"));
            TestClusterBench.Targets targets = new TestClusterBench.Targets("submitAll of jobs that differ only in "
                    + "their key");
            String user = env.get("LOGIN_USER");
            for (int round = 1; round <= 3; round++) {
                double local = localLoop(submits, env.get("LOGIN_USER"));
                cancelAll(env.get("LOGIN_USER"));
                long start = System.nanoTime();
                List<JobRef> one = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    one.add(backend.submit(plan, SubmitOptions.withKey(run + "-r" + round + "-one-" + i)));
                }
                double oneByOne = submits / seconds(start);
                submitted(check, "round " + round + ", submit one by one", one, submits, user, root);
                cancelAll(env.get("LOGIN_USER"));
                // A fan-out of jobs that differ only in their key: job arrays of up to 100 tasks.
                List<Submission> batch = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    batch.add(new Submission(plan, SubmitOptions.withKey(run + "-r" + round + "-all-" + i)));
                }
                start = System.nanoTime();
                List<JobRef> arrays = backend.submitAll(batch);
                double all = submits / seconds(start);
                submitted(check, "round " + round + ", submitAll of like jobs", arrays, submits, user, root);
                cancelAll(env.get("LOGIN_USER"));
                // A fan-out of jobs that each run their own command: one sbatch each.
                List<Submission> unlike = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    unlike.add(new Submission(TestClusterBench.plan("true", Integer.toString(i)),
                            SubmitOptions.withKey(run + "-r" + round + "-each-" + i)));
                }
                start = System.nanoTime();
                List<JobRef> each = backend.submitAll(unlike);
                double eachRate = submits / seconds(start);
                submitted(check, "round " + round + ", submitAll of unlike jobs", each, submits, user, root);
                cancelAll(env.get("LOGIN_USER"));
                System.out.printf(Locale.ROOT, "round %d: local sbatch loop %6.1f/s | Gantry submit one by one "
                        + "%6.1f/s = %.2f | Gantry submitAll, like jobs (arrays) %6.1f/s = %.2f | unlike jobs "
                        + "(one sbatch each) %6.1f/s = %.2f%n", round, local, oneByOne, oneByOne / local, all,
                        all / local, eachRate, eachRate / local);
                targets.round(all / local);
            }
            drain();
            for (int tracked : List.of(1, 1000)) {
                List<JobRef> refs = seed(root.resolve("jobs"), run, tracked, env.get("LOGIN_USER"));
                measurePolls(backend, refs, polls, counter, "squeue", targets, check);
                exec(List.of("scancel", "-u", env.get("LOGIN_USER"), "-n", "bench-held"));
            }
            targets.print("local sbatch loop", "squeue");
        } finally {
            exec(List.of("scancel", "-n", "bench-held"));
            exec(List.of("scontrol", "update", "nodename=" + env.get("SLURM_NODES").replace(' ', ','),
                    "state=resume"));
            exec(List.of("rm", "-rf", root.toString()));
        }
        check.exitIfFailed("SlurmSshBenchmark");
    }

    /** N sbatch calls in a shell loop on this machine (the controller), as the login user. */
    private static double localLoop(int n, String user) throws Exception {
        long start = System.nanoTime();
        // As the login user, as Gantry submits; stdin is not a terminal for either.
        exec(List.of("runuser", "-u", user, "--", "bash", "-c", "cd /tmp; for i in $(seq " + n + "); do sbatch "
                + "-Q -p hpc -o /dev/null --wrap true </dev/null >/dev/null || exit 1; done"));
        return n / seconds(start);
    }

    /**
     * Checks that a submit returned a reference for each of {@code submits} jobs and that Slurm lists that many
     * pending jobs under this run's work directory (the nodes are drained: none has started).
     */
    private static void submitted(WorkCheck check, String what, List<JobRef> refs, int submits, String user,
                                  Path root) throws Exception {
        check.refs(what, submits, refs);
        String prefix = root + "/";
        long listed = exec(List.of("squeue", "-h", "-r", "-u", user, "-t", "PD", "-o", "%Z")).lines()
                .filter(directory -> directory.startsWith(prefix)).count();
        check.count(what + ": jobs Slurm lists", submits, listed);
    }

    /**
     * {@code tracked} job directories whose Slurm ids are real jobs held pending ({@code sbatch -H}), so that squeue
     * lists every one of them.
     */
    private static List<JobRef> seed(Path jobs, String run, int tracked, String user) throws Exception {
        String ids = exec(List.of("runuser", "-u", user, "--", "bash", "-c", "for i in $(seq " + tracked + "); do "
                + "sbatch --parsable -H -J bench-held -p hpc -o /dev/null --wrap true || exit 1; done"));
        return jobDirectories(jobs, run, ids, "slurm-id", user);
    }

    /** Cancels the user's jobs and waits until Slurm lists none pending. */
    private static void cancelAll(String user) throws Exception {
        exec(List.of("scancel", "-u", user));
        drain();
    }

    /** Waits until the queue is empty, so one measure's jobs do not slow the next. */
    private static void drain() throws Exception {
        for (int i = 0; i < 600; i++) {
            if (exec(List.of("squeue", "-h", "-t", "PD,R,CG,CF")).isBlank()) {
                return;
            }
            Thread.sleep(500);
        }
    }
}
