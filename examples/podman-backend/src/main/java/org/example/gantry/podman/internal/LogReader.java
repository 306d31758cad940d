package org.example.gantry.podman.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A job's output from the log file podman writes ({@link CriLog}): all of it, the last lines of each stream, or
 * followed as it grows until the job has ended.
 */
final class LogReader {
    private static final Duration POLL = Duration.ofMillis(200);
    /** Read at most this much at a time: podman splits long lines into records of a few KiB, so a chunk has some. */
    private static final int CHUNK = 1 << 20;
    private final Path file;
    private final LogOptions options;
    private final CriLog log = new CriLog();
    private long offset;

    LogReader(Path file, LogOptions options) {
        this.file = file;
        this.options = options;
    }

    /**
     * Delivers the lines the options ask for; when following, keeps reading until {@code ended} says the job has
     * ended, then delivers what it wrote last.
     */
    void read(LogSink sink, BooleanSupplier ended) throws InterruptedException {
        List<LogLine> lines = next();
        if (options.tailLines().isPresent()) {
            lines = tail(lines, options.tailLines().getAsInt());
        }
        lines.forEach(sink::accept);
        if (!options.follow()) {
            return;
        }
        while (true) {
            // Asked before reading: what the job wrote before it ended is in the file by then.
            boolean done = hasEnded(ended);
            next().forEach(sink::accept);
            if (done) {
                return;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * Asks {@code ended}, which runs podman. An interrupt of the follow while podman runs shows as that call's
     * failure, with the thread's interrupt status set again; the follow then stops as the SPI says a follow stops,
     * with {@link InterruptedException}, rather than report the interrupt as a podman failure.
     */
    private static boolean hasEnded(BooleanSupplier ended) throws InterruptedException {
        try {
            return ended.getAsBoolean();
        } catch (RuntimeException e) {
            if (Thread.interrupted()) {
                InterruptedException stop = new InterruptedException("the follow was interrupted");
                stop.addSuppressed(e);
                throw stop;
            }
            throw e;
        }
    }

    /** The last {@code count} lines of each stream, in the order they were written. */
    static List<LogLine> tail(List<LogLine> lines, int count) {
        java.util.Map<LogLine.Stream, Long> skip = new java.util.EnumMap<>(LogLine.Stream.class);
        for (LogLine line : lines) {
            skip.merge(line.stream(), 1L, Long::sum);
        }
        skip.replaceAll((stream, total) -> total - count);
        List<LogLine> kept = new ArrayList<>();
        for (LogLine line : lines) {
            if (skip.merge(line.stream(), -1L, Long::sum) < 0) {
                kept.add(line);
            }
        }
        return kept;
    }

    /** The whole lines written since the last call, of the streams asked for. */
    private List<LogLine> next() {
        List<LogLine> lines = new ArrayList<>();
        if (!Files.exists(file)) {
            return lines; // the container has not written yet
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            while (offset < length) {
                byte[] bytes = new byte[(int) Math.min(length - offset, CHUNK)];
                in.seek(offset);
                in.readFully(bytes);
                int end = lastLineBreak(bytes);
                if (end < 0) {
                    return lines; // a record still being written
                }
                offset += end + 1;
                for (String record : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n", -1)) {
                    log.accept(record).filter(this::wanted).ifPresent(lines::add);
                }
            }
            return lines;
        } catch (IOException e) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot read the job's output " + file + ": "
                    + e.getMessage(), e);
        }
    }

    private boolean wanted(LogLine line) {
        return line.stream() == LogLine.Stream.STDOUT ? options.stdout() : options.stderr();
    }

    private static int lastLineBreak(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
