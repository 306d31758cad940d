package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the log file podman writes: larger than one read, a record half written, followed as it grows. */
class LogReaderTest {
    private static final String STAMP = "2026-12-05T17:52:27.815224651+00:00 ";

    @TempDir
    Path dir;

    @Test
    void aLogLargerThanOneReadComesWholeAndInOrder() throws Exception {
        Path file = dir.resolve("output.log");
        StringBuilder text = new StringBuilder();
        int count = 40_000; // about 2.4 MiB: three reads
        for (int i = 0; i < count; i++) {
            text.append(STAMP).append(i % 7 == 0 ? "stderr" : "stdout").append(" F line ").append(i).append('\n');
        }
        Files.writeString(file, text);
        List<LogLine> lines = read(file, LogOptions.all(), () -> true);
        assertEquals(count, lines.size());
        for (int i = 0; i < count; i++) {
            assertEquals("line " + i, lines.get(i).text());
        }
        List<LogLine> tail = read(file, new LogOptions(false, OptionalInt.of(1), true, false), () -> true);
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "line " + (count - 1))), tail);
    }

    @Test
    void followDeliversWhatIsWrittenUntilTheJobHasEndedAndNoHalfRecord() throws Exception {
        Path file = dir.resolve("output.log");
        Files.writeString(file, STAMP + "stdout F first\n" + STAMP + "stdout F sec");
        AtomicBoolean ended = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                Thread.sleep(300);
                Files.writeString(file, "ond\n" + STAMP + "stderr F third\n", StandardOpenOption.APPEND);
                ended.set(true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        List<LogLine> lines = read(file, LogOptions.following(), ended::get);
        writer.join();
        assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "first"),
                new LogLine(LogLine.Stream.STDOUT, 0, "second"), new LogLine(LogLine.Stream.STDERR, 0, "third")),
                lines);
    }

    @Test
    void aFollowInterruptedWhilePodmanRunsStopsWithInterruptedExceptionNotAPodmanFailure() throws Exception {
        Path file = dir.resolve("output.log");
        Files.writeString(file, STAMP + "stdout F first\n");
        // What the status call does when the follow is interrupted while podman runs: podman's failure, with the
        // interrupt status set again.
        java.util.function.BooleanSupplier interruptedPodman = () -> {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while podman ran");
        };
        InterruptedException stop = assertThrows(InterruptedException.class,
                () -> read(file, LogOptions.following(), interruptedPodman));
        assertEquals("interrupted while podman ran", stop.getSuppressed()[0].getMessage());
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt is reported once, by the exception");
        IllegalStateException other = assertThrows(IllegalStateException.class, () -> read(file,
                LogOptions.following(), () -> {
                    throw new IllegalStateException("podman is gone");
                }));
        assertEquals("podman is gone", other.getMessage(), "a failure without an interrupt is reported as it is");
    }

    @Test
    void tailKeepsTheLastLinesOfEachStreamInOrder() {
        LogLine.Stream out = LogLine.Stream.STDOUT;
        LogLine.Stream err = LogLine.Stream.STDERR;
        List<LogLine> lines = List.of(new LogLine(out, 0, "tick"), new LogLine(err, 0, "e1"),
                new LogLine(out, 0, "tick"), new LogLine(out, 0, "tick"), new LogLine(err, 0, "e2"),
                new LogLine(out, 0, "last"));
        assertEquals(List.of(lines.get(1), lines.get(3), lines.get(4), lines.get(5)), LogReader.tail(lines, 2));
    }

    private static List<LogLine> read(Path file, LogOptions options, java.util.function.BooleanSupplier ended)
            throws InterruptedException {
        List<LogLine> lines = new ArrayList<>();
        new LogReader(file, options).read(lines::add, ended);
        return lines;
    }
}
