package dev.gantry.benchmarks;

import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.StateServer;
import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunRecord;
import dev.gantry.runs.state.SqlJobStore;
import dev.gantry.runs.state.SqlRunStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The state store in one run, side by side: SQLite ({@code STATE_DIR/state.db} on this machine's disk) and, when
 * scripts/test-postgres.sh has its server up, PostgreSQL on loopback. For each: events
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

    /** Where a round's store lives: a fresh, empty database each time it is {@link #create created}. */
    private interface Database {
        String name();

        /** A new empty database; the returned opener opens a store on it, as each gantry command does. */
        Supplier<SqlJobStore> create() throws Exception;

        /** An opener of the run store on the database {@link #create} made last. */
        Supplier<SqlRunStore> runs();

        /** Removes what {@link #create} made. */
        void drop() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        List<Database> databases = new ArrayList<>(List.of(new SqliteFile()));
        PostgresServer.fromTestServer().ifPresentOrElse(databases::add, () -> System.out.println(
                "PostgreSQL: no test server (" + PostgresServer.ENV + "); start one with scripts/test-postgres.sh up"));
        List<String> verdicts = new ArrayList<>();
        WorkCheck check = new WorkCheck();
        for (Database database : databases) {
            System.out.println("== " + database.name());
            verdicts.addAll(measure(database, events, records, check));
        }
        verdicts.forEach(System.out::println);
        check.exitIfFailed("StateStoreBenchmark");
    }

    private static List<String> measure(Database database, int events, int records, WorkCheck check)
            throws Exception {
        Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
        List<Double> batched = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int batch : new int[] {1, 100, 1000}) {
                try (SqlJobStore store = database.create().get()) {
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
                    database.drop();
                }
            }
            System.out.println(line);
        }
        List<Double> listSeconds = new ArrayList<>();
        try {
            Supplier<SqlJobStore> opener = database.create();
            try (SqlJobStore store = opener.get()) {
                for (int i = 0; i < records; i++) {
                    store.save(JobRecord.submitting(String.format(Locale.ROOT, "run-%05d", i), "w", Optional.empty(),
                            "manual", "1 x Standard_F2s_v2 in eastus (on-demand, $0.0846/h)", t0.plusSeconds(i)));
                }
            }
            for (int round = 1; round <= 3; round++) {
                // A fresh store, as each gantry command opens one.
                long start = System.nanoTime();
                List<JobRecord> list;
                try (SqlJobStore store = opener.get()) {
                    list = store.list();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                int listed = list.size();
                check.count(database.name() + ", round " + round + ": different job records listed", records,
                        list.stream().map(JobRecord::id).distinct().count());
                listSeconds.add(seconds);
                System.out.printf(Locale.ROOT, "round %d: open the store and list %d job records: %.3f s%n", round,
                        listed, seconds);
            }
        } finally {
            database.drop();
        }
        double runList = listRuns(database, records, t0, check);
        double median = batched.stream().sorted().toList().get(1);
        double list = listSeconds.stream().sorted().toList().get(1);
        return List.of(String.format(Locale.ROOT, "target (%s): gantry list of %d runs in under %.1f s: median "
                + "%.3f s: %s", database.name(), records, LIST_SECONDS, runList, runList < LIST_SECONDS ? "met"
                : "NOT met"),
                String.format(Locale.ROOT, "target (%s): the store records at least %.0f events/s (1,000 a "
                + "transaction): median %.0f/s: %s", database.name(), EVENTS_PER_SECOND, median,
                median >= EVENTS_PER_SECOND ? "met" : "NOT met"), String.format(Locale.ROOT, "target (%s): listing "
                + "%d job records in under %.1f s: median %.3f s: %s", database.name(), records, LIST_SECONDS, list,
                list < LIST_SECONDS ? "met" : "NOT met"));
    }

    /**
     * What {@code gantry list --all --limit N} reads: {@code records} workflow runs (each with one step) written
     * once, then listed newest first by a freshly opened store, three rounds.
     *
     * @return the median seconds
     */
    private static double listRuns(Database database, int records, Instant t0, WorkCheck check) throws Exception {
        List<Double> seconds = new ArrayList<>();
        try {
            database.create().get().close();
            try (SqlRunStore store = database.runs().get()) {
                FillRuns.fill(store, records, t0);
            }
            for (int round = 1; round <= 3; round++) {
                long start = System.nanoTime();
                List<RunRecord> list;
                try (SqlRunStore store = database.runs().get()) {
                    list = store.list(records, true);
                }
                double took = (System.nanoTime() - start) / 1e9;
                int listed = list.size();
                check.count(database.name() + ", round " + round + ": different runs listed", records,
                        list.stream().map(RunRecord::id).distinct().count());
                seconds.add(took);
                System.out.printf(Locale.ROOT, "round %d: open the store and list %d runs: %.3f s%n", round, listed,
                        took);
            }
        } finally {
            database.drop();
        }
        return seconds.stream().sorted().toList().get(1);
    }

    /** SQLite: {@code state.db} in a fresh state directory on this machine's disk. */
    private static final class SqliteFile implements Database {
        private Path state;

        @Override
        public String name() {
            return "SQLite (state.db on local disk)";
        }

        @Override
        public Supplier<SqlJobStore> create() throws Exception {
            Path directory = Files.createTempDirectory("gantry-state-bench");
            state = directory;
            return () -> SqlJobStore.open(directory);
        }

        @Override
        public Supplier<SqlRunStore> runs() {
            Path directory = state;
            return () -> SqlRunStore.open(directory, Clock.systemUTC());
        }

        @Override
        public void drop() throws Exception {
            delete(state);
        }
    }

    /**
     * PostgreSQL: the test server of scripts/test-postgres.sh on loopback (a schema of each round's own), so the
     * figures include the protocol's round trips but no network.
     */
    private static final class PostgresServer implements Database {
        static final Path ENV = Path.of("/var/lib/gantry-test-postgres/postgres.env");
        private final String url;
        private final String user;
        private final Path passwordFile;
        private String schema;
        private Path state;
        private GantryConfig config;

        private PostgresServer(String url, String user, Path passwordFile) {
            this.url = url;
            this.user = user;
            this.passwordFile = passwordFile;
        }

        static Optional<PostgresServer> fromTestServer() throws Exception {
            if (!Files.isReadable(ENV)) {
                return Optional.empty();
            }
            java.util.Map<String, String> env = new java.util.HashMap<>();
            for (String line : Files.readAllLines(ENV)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            return Optional.of(new PostgresServer(env.get("URL"), env.get("USER"), Path.of(env.get("PASSWORD_FILE"))));
        }

        @Override
        public String name() {
            return "PostgreSQL (the test server on loopback)";
        }

        @Override
        public Supplier<SqlJobStore> create() throws Exception {
            schema = "bench_" + Long.toHexString(System.nanoTime());
            execute("CREATE SCHEMA " + schema);
            Path directory = Files.createTempDirectory("gantry-state-bench");
            state = directory;
            GantryConfig config = GantryConfig.defaults(directory).withStateDirectory(directory).withStateServer(
                    new StateServer(url + "?currentSchema=" + schema, Optional.of(user),
                            Optional.of(SecretRef.parse("file:" + passwordFile))));
            this.config = config;
            return () -> SqlJobStore.open(config, ref -> new Secret(read(passwordFile)));
        }

        @Override
        public Supplier<SqlRunStore> runs() {
            GantryConfig current = config;
            return () -> SqlRunStore.open(current, ref -> new Secret(read(passwordFile)), Clock.systemUTC());
        }

        @Override
        public void drop() throws Exception {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            delete(state);
        }

        private void execute(String sql) throws Exception {
            try (Connection connection = DriverManager.getConnection(url, user, read(passwordFile));
                 Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }

        private static String read(Path file) {
            try {
                return Files.readString(file).strip();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static void delete(Path directory) throws Exception {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
