package dev.gantry.benchmarks;

import dev.gantry.core.jobs.JobEvent;
import dev.gantry.core.jobs.JobRecord;
import dev.gantry.core.state.SqlJobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The SQLite state store ({@code STATE_DIR/state.db}) on this machine's disk, in one run, side by side: events
 * recorded per second one per transaction (as a state change is saved with its record) and in transactions of 100
 * and 1,000 (as a stream of events is appended); then listing 10,000 job records. Each measure three rounds, in a
 * fresh state directory. Usage, from the repository root:
 *
 * <pre>
 * ./mvnw -o -q -B -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)" \
 *     dev.gantry.benchmarks.StateStoreBenchmark 20000 10000
 * </pre>
 */
public final class StateStoreBenchmark {
    private static final double EVENTS_PER_SECOND = 10_000;
    private static final double LIST_SECONDS = 1.0;

    private StateStoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
        List<Double> batched = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int batch : new int[] {1, 100, 1000}) {
                Path state = Files.createTempDirectory("gantry-state-bench");
                try {
                    SqlJobStore store = SqlJobStore.open(state);
                    int n = batch == 1 ? Math.min(events, 5_000) : events;
                    long start = System.nanoTime();
                    List<JobEvent> pending = new ArrayList<>(batch);
                    for (int i = 0; i < n; i++) {
                        pending.add(JobEvent.of("job-" + (i % 50), t0.plusMillis(i), "log", "line " + i
                                + " of the workload's output, about as long as a log line is"));
                        if (pending.size() == batch) {
                            store.append(pending);
                            pending.clear();
                        }
                    }
                    store.append(pending);
                    double rate = n / ((System.nanoTime() - start) / 1e9);
                    if (batch == 1000) {
                        batched.add(rate);
                    }
                    line.append(String.format(Locale.ROOT, " | %d event(s) a transaction %8.0f/s", batch, rate));
                } finally {
                    delete(state);
                }
            }
            System.out.println(line);
        }
        List<Double> listSeconds = new ArrayList<>();
        Path state = Files.createTempDirectory("gantry-state-bench");
        try {
            SqlJobStore store = SqlJobStore.open(state);
            for (int i = 0; i < records; i++) {
                store.save(JobRecord.submitting(String.format(Locale.ROOT, "run-%05d", i), "w", Optional.empty(),
                        "manual", "1 x Standard_F2s_v2 in eastus (on-demand, $0.0846/h)", t0.plusSeconds(i)));
            }
            for (int round = 1; round <= 3; round++) {
                // A fresh store, as each gantry command opens one.
                long start = System.nanoTime();
                int listed = SqlJobStore.open(state).list().size();
                double seconds = (System.nanoTime() - start) / 1e9;
                listSeconds.add(seconds);
                System.out.printf(Locale.ROOT, "round %d: open the store and list %d job records: %.3f s%n", round,
                        listed, seconds);
            }
        } finally {
            delete(state);
        }
        double median = batched.stream().sorted().toList().get(1);
        System.out.printf(Locale.ROOT, "target: the store records at least %.0f events/s (1,000 a transaction): "
                + "median %.0f/s: %s%n", EVENTS_PER_SECOND, median, median >= EVENTS_PER_SECOND ? "met" : "NOT met");
        double list = listSeconds.stream().sorted().toList().get(1);
        System.out.printf(Locale.ROOT, "target: listing %d job records in under %.1f s: median %.3f s: %s%n",
                records, LIST_SECONDS, list, list < LIST_SECONDS ? "met" : "NOT met");
    }

    private static void delete(Path directory) throws Exception {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
