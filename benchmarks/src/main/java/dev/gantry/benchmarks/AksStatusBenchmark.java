package dev.gantry.benchmarks;

import static dev.gantry.benchmarks.AksBench.verdict;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The AKS backend's status polls while tracking N jobs, against the Kubernetes test cluster (backend-aks's
 * {@code KubeTestCluster}, started in this process over the node namespaces of scripts/test-kube.sh). N one-node
 * jobs running {@code true} are submitted and left to finish; then, with requests counted by the test server:
 * <ol>
 *   <li>a process that asks once: a new backend's first {@code statuses} of all N (target: at most 4 requests
 *       beyond the two watches it starts: one LIST per kind, Jobs and pods, in pages of 500);</li>
 *   <li>a process that keeps the backend open: the same backend's next polls (target: 0 requests beyond the two
 *       watches, and a median under 10 ms, answered from the informers' cache; timed after 20 warm-up polls).</li>
 * </ol>
 * Every poll must answer every job, and each job must have SUCCEEDED; otherwise it exits 1. Usage, as root from the
 * repository root:
 *
 * <pre>
 * scripts/test-kube.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.AksStatusBenchmark 1000 50
 * </pre>
 */
public final class AksStatusBenchmark {
    private static final int ASK_ONCE_REQUESTS = 4;
    private static final double WARM_P50_MS = 10;
    private static final long FINISH_WAIT_MS = 600_000;
    /** Polls before the timed ones, so that the JIT has compiled the poll's path (their requests are counted). */
    private static final int WARM_UP_POLLS = 20;

    private AksStatusBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int tracked = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        String run = "s" + UUID.randomUUID().toString().substring(0, 6);
        WorkCheck check = new WorkCheck();
        try (AksBench bench = AksBench.start()) {
            System.out.printf(Locale.ROOT, "AKS backend against the Kubernetes test cluster at %s, %d jobs tracked, "
                    + "%d polls%n", bench.cluster().serverUrl(), tracked, polls);
            List<JobRef> refs = submitAndFinish(bench, run, tracked, check);

            // A process that asks once: a new backend, its first poll.
            try (Backend backend = bench.backend("poller")) {
                bench.cluster().resetRequestCount();
                long start = System.nanoTime();
                Map<JobRef, JobStatus> first = backend.statuses(refs);
                double firstMs = (System.nanoTime() - start) / 1e6;
                long beyondWatches = bench.cluster().requestCount() - bench.watches();
                System.out.printf(Locale.ROOT, "first poll of a new backend (a process that asks once): %d requests "
                        + "beyond the %d watch(es) (%s), %.0f ms; target at most %d: %s%n", beyondWatches,
                        bench.watches(), bench.breakdown(), firstMs, ASK_ONCE_REQUESTS,
                        verdict(beyondWatches <= ASK_ONCE_REQUESTS));
                answered(check, "first poll", refs, first);
                warmPolls(bench, backend, refs, polls, check);
                // Cleaned up while the backend's watches are open: deletions streamed to a watch the test server has
                // not yet seen closed are refused by its closed sender, with a stack trace but no harm.
                bench.deleteJobs();
            }
        }
        check.exitIfFailed("AksStatusBenchmark");
    }

    /** Submits the tracked jobs and waits until every one has ended (polled by a backend closed before measuring). */
    private static List<JobRef> submitAndFinish(AksBench bench, String run, int tracked, WorkCheck check)
            throws Exception {
        try (Backend submitter = bench.backend("submitter")) {
            List<Submission> batch = new ArrayList<>();
            for (int i = 0; i < tracked; i++) {
                batch.add(new Submission(AksBench.plan(1, false), SubmitOptions.withKey(run + "-" + i)));
            }
            long start = System.nanoTime();
            List<JobRef> refs = submitter.submitAll(batch);
            check.refs("submitAll of the tracked jobs", tracked, refs);
            bench.jobsExist(check, "submitAll of the tracked jobs", refs);
            long ended = 0;
            long deadline = System.currentTimeMillis() + FINISH_WAIT_MS;
            while (System.currentTimeMillis() < deadline) {
                ended = submitter.statuses(refs).values().stream().filter(s -> s.state().isTerminal()).count();
                if (ended == tracked) {
                    break;
                }
                Thread.sleep(1000);
            }
            System.out.printf(Locale.ROOT, "%d jobs submitted and ended in %.1f s%n", ended,
                    (System.nanoTime() - start) / 1e9);
            return refs;
        }
    }

    /** Polls of a backend whose informers run: requests beyond the watches and latency, measured per poll. */
    private static void warmPolls(AksBench bench, Backend backend, List<JobRef> refs, int polls, WorkCheck check) {
        long[] nanos = new long[polls];
        long most = 0;
        bench.cluster().resetRequestCount();
        for (int p = -WARM_UP_POLLS; p < polls; p++) {
            long before = bench.cluster().requestCount();
            long start = System.nanoTime();
            Map<JobRef, JobStatus> answer = backend.statuses(refs);
            long took = System.nanoTime() - start;
            if (p >= 0) {
                nanos[p] = took;
            }
            most = Math.max(most, bench.cluster().requestCount() - before);
            answered(check, "poll " + (p + WARM_UP_POLLS + 1) + " of the open backend", refs, answer);
        }
        Arrays.sort(nanos);
        double p50 = nanos[polls / 2] / 1e6;
        System.out.printf(Locale.ROOT, "polls of the open backend (a process that keeps it open): %d requests in %d "
                + "polls (most in one: %d); the last %d timed: p50 %.2f ms, p90 %.2f ms%n",
                bench.cluster().requestCount(), WARM_UP_POLLS + polls, most, polls, p50,
                nanos[(int) (polls * 0.9)] / 1e6);
        System.out.printf(Locale.ROOT, "target: 0 requests per poll beyond the two watches: %s%n",
                verdict(bench.cluster().requestCount() == 0));
        System.out.printf(Locale.ROOT, "target: statuses of %d from the cache under %.0f ms p50: %s%n", refs.size(),
                WARM_P50_MS, verdict(p50 < WARM_P50_MS));
    }

    /** Checks that a poll answered every job, and answered SUCCEEDED (each ran {@code true} to its end). */
    private static void answered(WorkCheck check, String poll, List<JobRef> refs, Map<JobRef, JobStatus> answer) {
        check.count(poll + ": jobs answered SUCCEEDED", refs.size(), refs.stream().map(answer::get)
                .filter(status -> status != null && status.state() == JobState.SUCCEEDED).count());
    }
}
