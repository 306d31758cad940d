package dev.gantry.benchmarks;

import static dev.gantry.benchmarks.AksBench.verdict;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The AKS backend's submission against the Kubernetes test cluster (backend-aks's {@code KubeTestCluster}, started in
 * this process over the node namespaces of scripts/test-kube.sh), in one run, side by side:
 * <ol>
 *   <li>requests per {@code submit}, counted by the test server: a one-node job without secrets, with a secret, and
 *       a two-node job with a secret (targets 1, 3 and 4);</li>
 *   <li>per round, a plain loop creating N Jobs one by one with Fabric8 and the same kubeconfig (the floor; each a
 *       copy of the Job Gantry rendered, renamed), then {@code submitAll} of N one-node jobs through Gantry (target:
 *       at least 0.7 of the loop's rate, by the median of the rounds); after each, every Job is checked to exist and
 *       all are deleted.</li>
 * </ol>
 * Jobs run {@code true}. Usage, as root from the repository root:
 *
 * <pre>
 * scripts/test-kube.sh up
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.AksSubmitBenchmark 1000
 * </pre>
 */
public final class AksSubmitBenchmark {
    private static final double SUBMIT_RATIO = 0.7;
    private static final int ROUNDS = 3;
    private static final int COUNTED_SUBMITS = 10;

    private AksSubmitBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int submits = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String run = "b" + UUID.randomUUID().toString().substring(0, 6);
        WorkCheck check = new WorkCheck();
        try (AksBench bench = AksBench.start(); Backend backend = bench.backend("state");
             KubernetesClient client = bench.userClient()) {
            System.out.printf(Locale.ROOT, "AKS backend against the Kubernetes test cluster at %s, %d submits per "
                    + "round, %d rounds%n", bench.cluster().serverUrl(), submits, ROUNDS);
            // Warm both paths (class loading, connections) and take Gantry's rendered Job as the loop's template.
            JobRef warm = backend.submit(AksBench.plan(1, false), SubmitOptions.withKey(run + "-warm"));
            Job template = client.batch().v1().jobs().withName(warm.id()).get();
            createCopies(client, template, run + "-warm-loop", 1);
            boolean perSubmit = requestsPerSubmit(bench, backend, check, run);
            bench.deleteJobs();

            List<Double> ratios = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                long start = System.nanoTime();
                createCopies(client, template, run + "-r" + round + "-loop", submits);
                double loop = submits / seconds(start);
                check.count("round " + round + ", plain create loop: Jobs in the cluster", submits,
                        bench.jobNames().size());
                bench.deleteJobs();

                List<Submission> batch = new ArrayList<>();
                for (int i = 0; i < submits; i++) {
                    batch.add(new Submission(AksBench.plan(1, false),
                            SubmitOptions.withKey(run + "-r" + round + "-all-" + i)));
                }
                bench.cluster().resetRequestCount();
                start = System.nanoTime();
                List<JobRef> refs = backend.submitAll(batch);
                double all = submits / seconds(start);
                long requests = bench.cluster().requestCount();
                check.refs("round " + round + ", submitAll", submits, refs);
                bench.jobsExist(check, "round " + round + ", submitAll", refs);
                bench.deleteJobs();
                System.out.printf(Locale.ROOT, "round %d: plain create loop %6.1f/s | Gantry submitAll %6.1f/s = "
                        + "%.2f | %.2f requests per job%n", round, loop, all, all / loop, (double) requests / submits);
                ratios.add(all / loop);
            }
            double median = AksBench.median(ratios);
            System.out.printf(Locale.ROOT, "target: submitAll at least %.2f of the plain create loop: rounds %s, "
                    + "median %.2f: %s%n", SUBMIT_RATIO, String.join(" ", ratios.stream()
                    .map(r -> String.format(Locale.ROOT, "%.2f", r)).toList()), median,
                    verdict(median >= SUBMIT_RATIO));
            System.out.printf(Locale.ROOT, "target: requests per submit 1, 3 and 4: %s%n", verdict(perSubmit));
        }
        check.exitIfFailed("AksSubmitBenchmark");
    }

    /** Requests per {@code submit} of each kind of job, counted by the test server; whether each met its target. */
    private static boolean requestsPerSubmit(AksBench bench, Backend backend, WorkCheck check, String run)
            throws Exception {
        Map<String, Plan> plans = new LinkedHashMap<>();
        plans.put("one node, no secrets", AksBench.plan(1, false));
        plans.put("one node, a secret", AksBench.plan(1, true));
        plans.put("two nodes, a secret", AksBench.plan(2, true));
        List<Integer> targets = List.of(1, 3, 4);
        boolean met = true;
        int kind = 0;
        for (Map.Entry<String, Plan> plan : plans.entrySet()) {
            bench.cluster().resetRequestCount();
            List<JobRef> refs = new ArrayList<>();
            for (int i = 0; i < COUNTED_SUBMITS; i++) {
                refs.add(backend.submit(plan.getValue(), SubmitOptions.withKey(run + "-count" + kind + "-" + i)));
            }
            double perSubmit = (double) bench.cluster().requestCount() / COUNTED_SUBMITS;
            String breakdown = bench.breakdown();
            bench.jobsExist(check, "submit of " + plan.getKey(), refs);
            int target = targets.get(kind++);
            met &= perSubmit == target;
            System.out.printf(Locale.ROOT, "requests per submit, %s: %.1f (%s over %d submits), target %d: %s%n",
                    plan.getKey(), perSubmit, breakdown, COUNTED_SUBMITS, target, verdict(perSubmit == target));
        }
        return met;
    }

    /** Creates {@code count} copies of {@code template}, one request each, as a plain client loop would. */
    private static void createCopies(KubernetesClient client, Job template, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            client.batch().v1().jobs().resource(copy(template, prefix + "-" + i)).create();
        }
    }

    /** Gantry's Job under another name, without what the API server set (identity, status, generated selector). */
    private static Job copy(Job job, String name) {
        ObjectMeta meta = job.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>(meta.getLabels());
        labels.put("gantry.dev/job", name);
        Job copy = new JobBuilder(job).withMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels)
                .withAnnotations(Map.of("gantry.dev/idempotency-key", name)).build()).withStatus(null).build();
        copy.getSpec().setSelector(null);
        copy.getSpec().getTemplate().getMetadata().setLabels(new LinkedHashMap<>(labels));
        return copy;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
