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
 * The CycleCloud backend against the test cluster's real Grid Engine, in one run: submissions per second of a local
 * {@code qsub -b y true} loop against Gantry's {@code submit} one by one and {@code submitAll}, three rounds side by
 * side (the queue disabled, so that no job starts while any of them is measured), then remote commands and qstat
 * runs (counted by a wrapper) per status poll while tracking 1 and 1,000 jobs held pending ({@code qsub -h}).
 * Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-cluster.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.GridEngineSshBenchmark 100 10
 * </pre>
 */
public final class GridEngineSshBenchmark {
    private static final List<String> COMMANDS = List.of("qsub", "qstat", "qdel", "qacct", "qconf");

    private GridEngineSshBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int submits = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        TestClusterBench.Run bench = TestClusterBench.Run.start(COMMANDS, "qstat");
        Map<String, String> env = bench.env();
        String user = bench.user();
        String queue = env.get("GE_QUEUE");
        String run = bench.id();
        Path root = bench.root();
        Path counter = bench.counter();
        Map<String, String> config = bench.settings();
        config.put("scheduler", "gridengine");
        config.put("defaultPartition", queue); // the queue disabled below: none of the jobs starts
        String nodeQueue = env.get("GE_NODE_QUEUE");
        Plan plan = plan();
        System.out.printf(Locale.ROOT, "Grid Engine over SSH to %s:%s, %d submits, %d polls%n",
                env.get("LOGIN_ADDRESS"), env.get("LOGIN_PORT"), submits, polls);
        WorkCheck check = new WorkCheck();
        try (Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud", config),
                context(root))) {
            backend.validate(plan); // connects and probes the cluster once; not measured
            // Both queues: the local loop's jobs name none, and would start on the compute nodes' queue.
            exec(List.of("qmod", "-d", queue, nodeQueue));
            TestClusterBench.Targets targets = new TestClusterBench.Targets("submitAll");
            for (int round = 1; round <= 3; round++) {
                long start = System.nanoTime();
                exec(List.of("runuser", "-u", user, "--", "bash", "-c", "cd /tmp; for i in $(seq " + submits
                        + "); do qsub -b y -N bench-local -o /dev/null -j y true </dev/null >/dev/null || exit 1; "
                        + "done"));
                double local = submits / seconds(start);
                deleteAll(user);
                start = System.nanoTime();
                List<JobRef> one = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    one.add(backend.submit(plan, SubmitOptions.withKey(run + "-r" + round + "-one-" + i)));
                }
                double oneByOne = submits / seconds(start);
                submitted(check, "round " + round + ", submit one by one", one, submits, user, run);
                deleteAll(user);
                List<Submission> batch = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    batch.add(new Submission(plan, SubmitOptions.withKey(run + "-r" + round + "-all-" + i)));
                }
                start = System.nanoTime();
                List<JobRef> all = backend.submitAll(batch);
                double allRate = submits / seconds(start);
                submitted(check, "round " + round + ", submitAll", all, submits, user, run);
                deleteAll(user);
                System.out.printf(Locale.ROOT, "round %d: local qsub loop %6.1f/s | Gantry submit one by one "
                        + "%6.1f/s = %.2f | Gantry submitAll %6.1f/s = %.2f%n", round, local, oneByOne,
                        oneByOne / local, allRate, allRate / local);
                targets.round(allRate / local);
            }
            for (int tracked : List.of(1, 1000)) {
                // Not measured: the qsub binary itself (Debian's qsub is a wrapper script that runs several
                // processes to find it), four at a time.
                String ids = exec(List.of("runuser", "-u", user, "--", "env", "SGE_ROOT=" + env.get("GE_ROOT"),
                        "SGE_CELL=" + env.get("GE_CELL"), "bash", "-c", "cd /tmp; qsub=$SGE_ROOT/bin/$($SGE_ROOT/util/"
                        + "arch)/qsub; seq " + tracked + " | xargs -P 4 -I{} \"$qsub\" -terse -h -b y -N bench-held "
                        + "-o /dev/null -j y true"));
                measurePolls(backend, jobDirectories(root.resolve("jobs"), run, ids, "ge-id", user), polls, counter,
                        "qstat", targets, check);
                deleteAll(user);
            }
            targets.print("local qsub loop", "qstat");
        } finally {
            exec(List.of("qmod", "-e", queue, nodeQueue));
            exec(List.of("sh", "-c", "qdel -u '" + user + "' >/dev/null 2>&1; true"));
            exec(List.of("rm", "-rf", root.toString()));
        }
        check.exitIfFailed("GridEngineSshBenchmark");
    }

    /**
     * Checks that a submit returned a reference for each of {@code submits} jobs and that Grid Engine lists that many
     * jobs of this run (named for its keys), each array task on its own line.
     */
    private static void submitted(WorkCheck check, String what, List<JobRef> refs, int submits, String user,
                                  String run) throws Exception {
        check.refs(what, submits, refs);
        long listed = exec(List.of("qstat", "-u", user, "-g", "d", "-r")).lines()
                .filter(line -> line.strip().startsWith("Full jobname:") && line.contains(run)).count();
        check.count(what + ": jobs Grid Engine lists", submits, listed);
    }

    /** Deletes the user's jobs (all pending: the queue is disabled) and waits until qstat lists none. */
    private static void deleteAll(String user) throws Exception {
        exec(List.of("sh", "-c", "qdel -u '" + user + "' >/dev/null 2>&1; true"));
        for (int i = 0; i < 600; i++) {
            if (exec(List.of("qstat", "-u", user)).isBlank()) {
                return;
            }
            Thread.sleep(200);
        }
    }
}
