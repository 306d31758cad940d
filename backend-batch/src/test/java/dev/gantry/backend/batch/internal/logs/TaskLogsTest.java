package dev.gantry.backend.batch.internal.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.MultiInstanceSettings;
import com.microsoft.azure.batch.protocol.models.NodeRemoveParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.backend.batch.fake.RecordedRequest;
import dev.gantry.backend.batch.internal.status.FakeAccount;
import dev.gantry.backend.batch.internal.status.TaskStatuses;
import dev.gantry.backend.batch.internal.status.TrackedTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TaskLogsTest {
    private FakeAccount account;
    private TaskLogs logs;
    private TaskStatuses statuses;

    private void start(int nodes) {
        start(new FakeAccount(nodes));
    }

    private void start(FakeAccount fakeAccount) {
        account = fakeAccount;
        logs = new TaskLogs(account.calls(), Duration.ofMillis(100));
        statuses = new TaskStatuses(account.calls(), Clock.systemUTC(), TaskStatuses.DEFAULT_CLOCK_SKEW);
    }

    @AfterEach
    void close() {
        if (account != null) {
            account.close();
        }
    }

    private TrackedTask ended(TrackedTask task) throws InterruptedException {
        account.pollUntil(statuses, task, s -> s.state().isTerminal());
        return account.tracked.get(task.ref().id());
    }

    private List<LogLine> read(TrackedTask task, LogOptions options) throws InterruptedException {
        List<LogLine> lines = new ArrayList<>();
        logs.read(task, options, lines::add);
        return lines;
    }

    private static List<String> texts(List<LogLine> lines, LogLine.Stream stream) {
        return lines.stream().filter(l -> l.stream() == stream).map(LogLine::text).toList();
    }

    @Test
    void allOfBothStreamsStayApart() throws Exception {
        start(1);
        TrackedTask task = ended(account.submit("both", List.of(), "sh", "-c",
                "echo out one; echo err one >&2; echo out two; printf 'no newline ü' >&2"));
        List<LogLine> lines = read(task, LogOptions.all());
        assertEquals(List.of("out one", "out two"), texts(lines, LogLine.Stream.STDOUT));
        assertEquals(List.of("err one", "no newline ü"), texts(lines, LogLine.Stream.STDERR));
        assertTrue(lines.stream().allMatch(l -> l.node() == 0));
    }

    @Test
    void aTailReadsTheLengthThenRangesFromTheEndWidenedUntilEnoughLines() throws Exception {
        start(1);
        TrackedTask task = ended(account.submit("long", List.of(), "sh", "-c",
                "i=0; while [ $i -lt 20000 ]; do echo \"line $i\"; i=$((i+1)); done; echo tail-err >&2"));
        account.fake.clearRequests();
        List<LogLine> three = read(task, LogOptions.tail(3));
        assertEquals(List.of("line 19997", "line 19998", "line 19999"), texts(three, LogLine.Stream.STDOUT));
        assertEquals(List.of("tail-err"), texts(three, LogLine.Stream.STDERR));
        assertEquals(2, account.fake.count("File_GetPropertiesFromTask"));
        List<String> ranges = account.fake.requests().stream().filter(r -> r.operation().equals("File_GetFromTask"))
                .map(TaskLogsTest::range).toList();
        assertEquals(2, ranges.size(), ranges.toString());
        assertTrue(ranges.stream().allMatch(r -> r.matches("bytes=\\d+-\\d+")), ranges.toString());

        account.fake.clearRequests();
        List<LogLine> many = read(task, new LogOptions(false, java.util.OptionalInt.of(5000), true, false));
        assertEquals(IntStream.range(15000, 20000).mapToObj(i -> "line " + i).toList(),
                texts(many, LogLine.Stream.STDOUT));
        assertTrue(account.fake.count("File_GetFromTask") > 1, "the range was widened: "
                + account.fake.counts());
    }

    private static String range(RecordedRequest request) {
        return request.headers().getOrDefault("ocp-range", List.of("none")).get(0);
    }

    @Test
    void followDeliversLaterLinesAndReturnsOnceTheTaskEndedAndItsOutputIsDrained() throws Exception {
        start(1);
        TrackedTask task = account.submit("later", List.of(), "sh", "-c",
                "echo first; sleep 1; echo second; echo late-err >&2; printf last");
        List<LogLine> lines = read(task, LogOptions.following());
        assertEquals(List.of("first", "second", "last"), texts(lines, LogLine.Stream.STDOUT));
        assertEquals(List.of("late-err"), texts(lines, LogLine.Stream.STDERR));
        List<String> ranges = account.fake.requests().stream().filter(r -> r.operation().equals("File_GetFromTask"))
                .map(TaskLogsTest::range).toList();
        assertTrue(ranges.stream().allMatch(r -> r.matches("bytes=\\d+-")), ranges.toString());
        assertTrue(ranges.stream().anyMatch(r -> !r.equals("bytes=0-")), "later reads go on from an offset: " + ranges);
    }

    @Test
    void followStopsAtOnceWhenInterrupted() throws Exception {
        start(1);
        TrackedTask task = account.submit("forever", List.of(), "sh", "-c", "echo up; sleep 60");
        List<LogLine> lines = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                logs.read(task, LogOptions.following(), lines::add);
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        reader.start();
        awaitLine(lines, "up");
        long before = System.nanoTime();
        reader.interrupt();
        reader.join(5_000);
        assertTrue(!reader.isAlive(), "the follow stopped");
        assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(2));
        assertTrue(ended.get() instanceof InterruptedException, String.valueOf(ended.get()));
    }

    private static void awaitLine(List<LogLine> lines, String text) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (lines.stream().noneMatch(l -> l.text().equals(text))) {
            assertTrue(Instant.now().isBefore(deadline), "no line '" + text + "' came: " + lines);
            Thread.sleep(20);
        }
    }

    @Test
    void followGoesOnAcrossAPreemptionWithTheNewRunsOutput() throws Exception {
        start(FakeAccount.onSpot(2)); // Batch preempts only Spot nodes
        TrackedTask task = account.submit("requeued", List.of(), "sh", "-c",
                "echo \"run on $AZ_BATCH_NODE_ID\"; sleep 2; echo done");
        Following follow = Following.started(sink -> logs.read(task, LogOptions.following(), sink));
        String first = account.fake.preemptNodeOf(account.jobId, task.ref().taskId());
        List<String> out = follow.ended(LogLine.Stream.STDOUT);
        assertEquals("run on " + first, out.get(0));
        assertEquals("done", out.get(out.size() - 1), out.toString());
        assertTrue(out.stream().anyMatch(l -> l.startsWith("run on ") && !l.equals("run on " + first)),
                "the second run's output came: " + out);
    }

    @Test
    void filesBatchRemovedGiveAClearMessage() throws Exception {
        start(1);
        TrackedTask task = ended(account.submit("gone", List.of(), "echo", "bye"));
        String node = account.fake.task(account.jobId, task.ref().taskId()).orElseThrow().path("nodeInfo")
                .path("nodeId").asText();
        account.protocol().pools().removeNodes(account.poolId, new NodeRemoveParameter().withNodeList(List.of(node)));
        // A tail starts with a HEAD, whose 409 has no body to name the error: the message must be as clear.
        for (LogOptions options : List.of(LogOptions.all(), LogOptions.tail(3))) {
            GantryException e = assertThrows(GantryException.class, () -> read(task, options));
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            assertTrue(e.getMessage().contains("TaskFilesCleanedup") && e.getMessage().contains(task.ref().id())
                    && e.getMessage().contains("stdout.txt"), e.getMessage());
        }
    }

    @Test
    void aTwoNodeTasksRanksAreReadAtTheirNodesWithTheirRank() throws Exception {
        start(2);
        String coordination = "/bin/sh -c 'D=$AZ_BATCH_TASK_SHARED_DIR; if [ \"$AZ_BATCH_IS_CURRENT_NODE_MASTER\" "
                + "= true ]; then echo zero > $D/rank-0.stdout; echo zero-err > $D/rank-0.stderr; exit 0; fi; "
                + "echo one > $D/rank-1.stdout; : > $D/rank-1.stderr'";
        TrackedTask task = ended(account.add(new TaskAddParameter().withId("pair").withCommandLine("true")
                .withMultiInstanceSettings(new MultiInstanceSettings().withNumberOfInstances(2)
                        .withCoordinationCommandLine(coordination)), 2));
        account.fake.clearRequests();
        List<LogLine> lines = read(task, LogOptions.all());
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "zero"),
                new LogLine(LogLine.Stream.STDERR, 0, "zero-err"), new LogLine(LogLine.Stream.STDOUT, 1, "one")),
                lines);
        assertEquals(0, account.fake.count("File_GetFromTask"), "ranks are read through the node file API");
        assertTrue(account.fake.count("File_GetFromComputeNode") >= 3);

        List<LogLine> followed = read(task, LogOptions.following());
        assertEquals(lines, followed);
        assertEquals(lines.stream().filter(l -> l.node() == 1).collect(Collectors.toList()),
                read(task, LogOptions.tail(1)).stream().filter(l -> l.node() == 1).toList());
    }
}
