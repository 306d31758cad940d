package dev.gantry.benchmarks;

import static dev.gantry.benchmarks.AksBench.verdict;

import dev.gantry.api.Architecture;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.BatchBackendProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The Batch backend's {@code submitAll} and {@code statuses} against the Batch fake as a process
 * (scripts/test-batch.sh up), counted by the fake (its control endpoint's {@code /counts}). Two cases, each with its
 * own pool (another VM size), so that one case's tasks are never listed by the other's polls:
 * <ol>
 *   <li>N small tasks through one {@code submitAll}: at most {@code ceil(N / 100)} {@code addtaskcollection} calls
 *       (Batch takes 100 tasks a call); then {@value #POLLS} polls of {@code statuses} over all N, each at most
 *       {@code ceil(N / 1000)} list calls (one paged list per Batch job, 1,000 tasks a page), every task answered
 *       PENDING, PROVISIONING or RUNNING, so that no answer comes from the record of an ended task;</li>
 *   <li>the same with tasks of about {@value #LARGE_ARGUMENT_BYTES} bytes each, so that the 1 MB body limit, not
 *       the 100-task limit, cuts the chunks: the calls are reported, and at least as many as the bytes force.</li>
 * </ol>
 * Call counts are asserted (the benchmark exits 1 when one is over); wall times are reported, not failed on. The
 * fake's pools must not run the tasks while they are counted: start it with a long autoscale interval, so that a
 * pool Gantry makes stays at the zero nodes of its first evaluation (the tasks stay active, as they would while a
 * pool waits for nodes). Usage, as root from the repository root:
 *
 * <pre>
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * scripts/test-batch.sh up --control --account eastus --autoscale-interval PT1H
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.BatchSubmitBenchmark 10000 10000
 * scripts/test-batch.sh down
 * </pre>
 * The arguments are the small and the large case's task counts. The fake's summary is read from
 * {@code $GANTRY_TEST_BATCH_DIR/batch.env} (default /var/lib/gantry-test-batch/batch.env).
 */
public final class BatchSubmitBenchmark {
    static final int POLLS = 3;
    static final int LARGE_ARGUMENT_BYTES = 16 * 1024;
    private static final int TASKS_PER_CALL = 100;
    private static final int TASKS_PER_PAGE = 1000;
    private static final int BODY_LIMIT = 1_000_000;
    private static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu Server 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    private static final NodeBoot BOOT = new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"));
    private static final Set<JobState> WAITING = Set.of(JobState.PENDING, JobState.PROVISIONING, JobState.RUNNING);

    private BatchSubmitBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int small = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int large = args.length > 1 ? Integer.parseInt(args[1]) : small;
        BatchFakeProcess fake = BatchFakeProcess.fromSummary();
        WorkCheck check = new WorkCheck();
        Path state = Files.createTempDirectory("gantry-batch-bench");
        String run = "b" + UUID.randomUUID().toString().substring(0, 6);
        try (Backend backend = backend(fake, state)) {
            System.out.printf(Locale.ROOT, "Batch backend against the Batch fake at %s (account %s), counted by the "
                    + "fake; %,d small tasks, %,d large tasks, %d status polls each%n", fake.url(), fake.account(),
                    small, large, POLLS);
            oneCase(backend, fake, check, "small tasks", plan(fake, "Standard_D2s_v3", ""), run + "-s", small, false);
            String argument = "x".repeat(LARGE_ARGUMENT_BYTES);
            oneCase(backend, fake, check, "large tasks (" + LARGE_ARGUMENT_BYTES / 1024 + " KiB argument each)",
                    plan(fake, "Standard_D4s_v3", argument), run + "-l", large, true);
        } finally {
            deleteTree(state);
        }
        check.exitIfFailed("BatchSubmitBenchmark");
    }

    /** One submitAll of {@code count} tasks of {@code plan}, then the polls; calls counted, targets checked. */
    private static void oneCase(Backend backend, BatchFakeProcess fake, WorkCheck check, String what, Plan plan,
            String keyPrefix, int count, boolean byteChunks) throws IOException, InterruptedException {
        List<Submission> submissions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            submissions.add(new Submission(plan, SubmitOptions.withKey(keyPrefix + "-" + i)));
        }
        Map<String, Long> before = fake.counts();
        long start = System.nanoTime();
        List<JobRef> refs = backend.submitAll(submissions);
        double submitSeconds = seconds(start);
        Map<String, Long> after = fake.counts();
        long collections = delta(before, after, "Task_AddCollection");
        check.refs(what + ", submitAll", count, refs);
        long byCount = ceilDiv(count, TASKS_PER_CALL);
        System.out.printf(Locale.ROOT, "%s: submitAll of %,d tasks in %.2f s (%,.0f tasks/s): %,d addtaskcollection "
                + "calls (%.1f tasks a call; at most %,d allowed by count alone), %,d requests in all%n", what, count,
                submitSeconds, count / submitSeconds, collections, (double) count / Math.max(1, collections), byCount,
                total(after) - total(before));
        if (!byteChunks) {
            check.atMost(what + ": addtaskcollection calls", byCount, collections);
        } else {
            // Byte-based chunks: more calls than the 100-task limit alone needs, each body under 1 MB.
            check.atLeast(what + ": addtaskcollection calls (more than 100-task chunks need)", byCount + 1,
                    collections);
            long byBytes = ceilDiv((long) count * LARGE_ARGUMENT_BYTES, BODY_LIMIT);
            check.atLeast(what + ": addtaskcollection calls (at least what the 1 MB limit forces)", byBytes,
                    collections);
        }
        long listsAllowed = ceilDiv(count, TASKS_PER_PAGE);
        for (int poll = 1; poll <= POLLS; poll++) {
            Map<String, Long> polled = fake.counts();
            start = System.nanoTime();
            Map<JobRef, JobStatus> statuses = backend.statuses(refs);
            double pollSeconds = seconds(start);
            Map<String, Long> afterPoll = fake.counts();
            long lists = delta(polled, afterPoll, "Task_List");
            Map<JobState, Integer> states = new EnumMap<>(JobState.class);
            statuses.values().forEach(status -> states.merge(status.state(), 1, Integer::sum));
            int waiting = states.entrySet().stream().filter(e -> WAITING.contains(e.getKey()))
                    .mapToInt(Map.Entry::getValue).sum();
            System.out.printf(Locale.ROOT, "%s: poll %d of %,d statuses in %.2f s: %,d list-tasks calls (target at "
                    + "most %d: %s), %,d requests in all, states %s%n", what, poll, statuses.size(), pollSeconds,
                    lists, listsAllowed, verdict(lists <= listsAllowed), total(afterPoll) - total(polled), states);
            check.count(what + ", poll " + poll + ": statuses answered", count, statuses.size());
            check.count(what + ", poll " + poll + ": tasks pending or running (none answered from an ended record)",
                    count, waiting);
            check.atMost(what + ", poll " + poll + ": list-tasks calls", listsAllowed, lists);
        }
    }

    private static Backend backend(BatchFakeProcess fake, Path state) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("accounts[0].url", fake.url());
        settings.put("accounts[0].region", fake.account());
        settings.put("accounts[0].auth", "sharedKey");
        settings.put("accounts[0].key", "file:" + fake.keyFile());
        settings.put("maxNodesPerPool", "1");
        return new BatchBackendProvider().create(new BackendConfig("batch", settings),
                new BenchContext(state, BatchSubmitBenchmark::readFile));
    }

    /** The account key, the one secret reference here ({@code file:PATH}). */
    private static Secret readFile(SecretRef ref) {
        if (ref.kind() != SecretRef.Kind.FILE) {
            throw new IllegalArgumentException("the benchmark resolves file: references only, not " + ref);
        }
        try {
            return new Secret(Files.readString(Path.of(ref.location())).strip());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the account key " + ref.location(), e);
        }
    }

    /** A one-node plan in the fake account's region (a loopback account is named after it) running {@code true}. */
    private static Plan plan(BatchFakeProcess fake, String vmSize, String argument) {
        Workload.Builder workload = Workload.builder("bench-batch").phase(Phase.TRAINING).model(ModelClass.SMALL);
        workload = argument.isEmpty() ? workload.command("true") : workload.command("true", argument);
        VmSize size = new VmSize(vmSize, "standardDSv3Family", 2, 8, Optional.empty(), false, Architecture.X64,
                Set.of("V2"));
        return Plan.builder(workload.build(), size).region(fake.account()).image(UBUNTU).boot(BOOT).spot(false)
                .build();
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String operation) {
        return after.getOrDefault(operation, 0L) - before.getOrDefault(operation, 0L);
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
