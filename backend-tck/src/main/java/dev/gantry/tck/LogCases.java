package dev.gantry.tck;

import static dev.gantry.tck.Kit.TICKER;
import static dev.gantry.tck.Kit.assertState;
import static dev.gantry.tck.Kit.textOf;
import static dev.gantry.tck.Kit.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Logs: both streams apart (or merged where declared), tails, and follows that end with the job or an interrupt. */
abstract class LogCases extends KitCases {
    LogCases(Kit kit) {
        super(kit);
    }

    @Test
    void stdoutAndStderrStayApart() throws Exception {
        JobRef job = kit.submit(workload("streams").command("sh", "-c", "echo out1; echo err1 >&2; echo out2").build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        if (backend.capabilities().mergedLogs()) {
            // One stream: every line arrives, as STDOUT, each stream's lines in their order.
            List<LogLine> merged = kit.collect(job, LogOptions.all());
            assertEquals(List.of(), textOf(merged, LogLine.Stream.STDERR), "mergedLogs reports every line as STDOUT");
            assertEquals(Set.of("out1", "err1", "out2"), Set.copyOf(textOf(merged, LogLine.Stream.STDOUT)));
            List<String> text = textOf(merged, LogLine.Stream.STDOUT);
            assertTrue(text.indexOf("out1") < text.indexOf("out2"), "lines of one stream keep their order: " + text);
            return;
        }
        assertEquals(List.of("out1", "out2"), kit.lines(job, new LogOptions(false, OptionalInt.empty(), true, false)));
        assertEquals(List.of("err1"), kit.lines(job, new LogOptions(false, OptionalInt.empty(), false, true)));
        List<LogLine> all = kit.collect(job, LogOptions.all());
        assertEquals(List.of("out1", "out2"), textOf(all, LogLine.Stream.STDOUT));
        assertEquals(List.of("err1"), textOf(all, LogLine.Stream.STDERR));
    }

    @Test
    void logsTailTheLastLines() throws Exception {
        JobRef job = kit.submit(workload("tail").command("printf", "line1\\nline2\\nline3\\nline4\\nline5\\n").build());
        assertState(JobState.SUCCEEDED, kit.awaitEnd(job));
        assertEquals(List.of("line4", "line5"), kit.lines(job, new LogOptions(false, OptionalInt.of(2), true, false)));
        assertEquals(List.of("line1", "line2", "line3", "line4", "line5"),
                kit.lines(job, new LogOptions(false, OptionalInt.of(50), true, false)));
    }

    @Test
    void followDeliversLaterLinesAndReturnsWhenTheJobEnds() throws Exception {
        JobRef job = kit.submit(workload("follow")
                .command("sh", "-c", "echo first; sleep 1; echo second; echo third >&2").build());
        kit.awaitOutput(job, out -> out.contains("first"));
        if (!backend.capabilities().followLogs()) {
            GantryException e = assertThrows(GantryException.class, () -> kit.collect(job, LogOptions.following()),
                    "capabilities say logs cannot be followed, so a follow request must fail clearly");
            assertNotNull(e.code());
            return;
        }
        List<LogLine> received = new CopyOnWriteArrayList<>();
        Future<?> follow = kit.followers().submit(() -> {
            backend.logs(job, LogOptions.following(), received::add);
            return null;
        });
        // "second" is written about a second after "first": the follow call is already running by then.
        follow.get(fixture.timeout().toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(backend.status(job).state().isTerminal(), "follow returned before the job ended");
        if (backend.capabilities().mergedLogs()) {
            assertEquals(List.of("first", "second", "third"), textOf(received, LogLine.Stream.STDOUT));
            return;
        }
        assertEquals(List.of("first", "second"), textOf(received, LogLine.Stream.STDOUT));
        assertEquals(List.of("third"), textOf(received, LogLine.Stream.STDERR));
    }

    @Test
    void followStopsWhenInterrupted() throws Exception {
        JobRef job = kit.submit(workload("interrupt").command("sh", "-c", TICKER).build());
        kit.awaitOutput(job, out -> out.contains("tick"));
        if (!backend.capabilities().followLogs()) {
            return; // followDeliversLaterLinesAndReturnsWhenTheJobEnds asserts the refusal
        }
        List<String> unexpected = new CopyOnWriteArrayList<>(); // stack traces: where the backend let it escape
        Thread follower = new Thread(() -> {
            try {
                backend.logs(job, LogOptions.following(), line -> { });
            } catch (InterruptedException expected) {
                // returning early by throwing InterruptedException is what the contract allows
            } catch (Throwable t) {
                java.io.StringWriter trace = new java.io.StringWriter();
                t.printStackTrace(new java.io.PrintWriter(trace));
                unexpected.add(trace.toString());
            }
        }, "tck-follower");
        follower.start();
        try {
            Thread.sleep(300);
            assertTrue(follower.isAlive(), "follow returned while the job was still running");
            follower.interrupt();
            follower.join(fixture.timeout().toMillis());
            assertFalse(follower.isAlive(), "an interrupted follow must return");
            assertEquals(List.of(), unexpected, "an interrupted follow returns or throws InterruptedException only");
            assertEquals(JobState.RUNNING, backend.status(job).state(), "the interruption must not touch the job");
        } finally {
            // Also ends a follow that failed to stop, which would otherwise poll on into (and skew) later cases.
            backend.cancel(job);
        }
    }
}
