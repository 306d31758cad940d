package dev.gantry.runs.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.SecretRef;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.StateServer;
import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real processes writing one state database at once, SQLite's and PostgreSQL's: nothing lost, nothing numbered
 * twice.
 */
class TwoProcessesTest {
    private static final int EACH = 300;

    @TempDir
    Path state;

    /**
     * One writer process: saves the shared job's record with each of its events, one transaction each. Arguments:
     * {@code DIR WRITER} for the SQLite database in DIR, {@code DIR WRITER URL USER PASSWORD_FILE} for a server's.
     */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        String writer = args[1];
        SqlJobStore store = args.length == 2 ? SqlJobStore.open(directory) : SqlJobStore.open(
                GantryConfig.defaults(directory).withStateDirectory(directory).withStateServer(new StateServer(
                        args[2], Optional.of(args[3]), Optional.of(SecretRef.parse("file:" + args[4])))),
                TestPostgres.secrets());
        JobRecord record = JobRecord.submitting("shared", "w", Optional.empty(), "manual", "p",
                Instant.parse("2026-12-01T00:00:00Z"));
        for (int i = 0; i < EACH; i++) {
            if (i % 2 == 0) {
                store.save(record, JobEvent.of("shared", Instant.now(), "log", writer + " " + i));
            } else {
                store.append(List.of(JobEvent.of("shared", Instant.now(), "log", writer + " " + i)));
            }
        }
    }

    @Test
    void twoWritersAtOnceLoseNoEventAndNumberEachOnce() throws Exception {
        SqlJobStore.open(state).close(); // created once, so both writers find the schema
        assertBothWritersKeptEveryEvent(List.of(), () -> SqlJobStore.open(state));
    }

    @Test
    void twoWritersAtOnceOnAServerLoseNoEventAndNumberEachOnce() throws Exception {
        TestPostgres server = TestPostgres.get();
        try (TestPostgres.Schema schema = server.newSchema()) {
            // Each writer creates the schema if it finds none: two processes migrating at once is part of the test.
            assertBothWritersKeptEveryEvent(List.of(schema.url(), server.user(), server.password().location()),
                    () -> SqlJobStore.open(schema.config(state), TestPostgres.secrets()));
        }
    }

    private void assertBothWritersKeptEveryEvent(List<String> where, Supplier<SqlJobStore> reader) throws Exception {
        List<Process> writers = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), TwoProcessesTest.class.getName(),
                    state.toString(), name));
            command.addAll(where);
            writers.add(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(state.resolve("writer-" + name + ".log").toFile()).start());
        }
        for (Process writer : writers) {
            assertTrue(writer.waitFor(120, TimeUnit.SECONDS), "a writer did not finish");
            assertEquals(0, writer.exitValue(), java.nio.file.Files.readString(state.resolve("writer-"
                    + (writers.indexOf(writer) == 0 ? "a" : "b") + ".log"), StandardCharsets.UTF_8));
        }
        List<JobEvent> history;
        try (SqlJobStore store = reader.get()) {
            history = store.history("shared");
        }
        assertEquals(LongStream.rangeClosed(1, 2L * EACH).boxed().toList(),
                history.stream().map(JobEvent::sequence).toList());
        for (String name : List.of("a", "b")) {
            List<String> mine = history.stream().map(JobEvent::detail).filter(d -> d.startsWith(name + " "))
                    .toList();
            assertEquals(java.util.stream.IntStream.range(0, EACH).mapToObj(i -> name + " " + i).toList(), mine,
                    "each writer's events, all of them, in its order");
        }
    }
}
