package dev.gantry.hosts.jobs;

import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.hosts.Host;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Reads a job's output files on one host as lines: all, the last N of each, or followed by polling until the job has
 * ended and every file is drained. Each file is one stream of one node (a rank's stdout, its stderr). Lines split on
 * {@code \n} only and are decoded whole, so multi-byte characters survive. The manual backend reads each rank's pair
 * on that rank's host; a scheduler backend reads every rank's files on its login node, where the shared file system
 * shows them.
 */
public final class LogFiles {
    /** One output file: which stream of which node it holds, and where it is on the host. */
    public record LogFile(LogLine.Stream stream, int node, String path) {
        public LogFile {
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(path, "path");
        }
    }

    private final Host host;
    private final List<LogFile> files;
    private final BooleanSupplier ended;
    private final Duration poll;

    /**
     * @param files the files to read, in the order their lines are delivered within one poll
     * @param ended whether the job has ended: a followed log stops once it has and its files are drained
     * @param poll how long to wait between looks while following
     */
    public LogFiles(Host host, List<LogFile> files, BooleanSupplier ended, Duration poll) {
        this.host = Objects.requireNonNull(host, "host");
        this.files = List.copyOf(files);
        this.ended = Objects.requireNonNull(ended, "ended");
        this.poll = Objects.requireNonNull(poll, "poll");
    }

    /** The files of {@code options}' streams among {@code files}. */
    public static List<LogFile> selected(List<LogFile> files, LogOptions options) {
        return files.stream().filter(f -> f.stream() == LogLine.Stream.STDOUT ? options.stdout() : options.stderr())
                .toList();
    }

    /**
     * A remote call that failed because its thread was interrupted (the SSH layer keeps the flag and throws) is the
     * interrupt: thrown as one, so that a follow stopped by its caller ends as {@link Backend#logs} says. Any other
     * failure is returned, for the caller to throw.
     */
    public static GantryException interruptOr(GantryException failure) throws InterruptedException {
        if (Thread.interrupted()) {
            InterruptedException interrupt = new InterruptedException(failure.getMessage());
            interrupt.initCause(failure);
            throw interrupt;
        }
        return failure;
    }

    /** Delivers the selected streams' lines to the sink; see {@link Backend#logs}. */
    public void deliver(LogOptions options, LogSink sink) throws InterruptedException {
        try {
            read(options, sink);
        } catch (GantryException e) {
            throw interruptOr(e);
        }
    }

    private void read(LogOptions options, LogSink sink) throws InterruptedException {
        List<Reader> readers = new ArrayList<>();
        for (LogFile file : selected(files, options)) {
            readers.add(new Reader(file));
        }
        if (!options.follow()) {
            for (Reader reader : readers) {
                emit(tail(reader.read(true), options), reader.file, sink);
            }
            return;
        }
        boolean first = true;
        while (true) {
            // Ask before reading: output written before the job ended is then certain to be read below.
            boolean done = ended.getAsBoolean();
            for (Reader reader : readers) {
                List<String> lines = reader.read(done);
                emit(first ? tail(lines, options) : lines, reader.file, sink);
            }
            first = false;
            if (done) {
                return;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("following the logs on " + host.name() + " was interrupted");
            }
            Thread.sleep(poll.toMillis());
        }
    }

    private static List<String> tail(List<String> lines, LogOptions options) {
        if (options.tailLines().isEmpty()) {
            return lines;
        }
        int n = Math.max(0, options.tailLines().getAsInt());
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }

    private static void emit(List<String> lines, LogFile file, LogSink sink) {
        for (String line : lines) {
            sink.accept(new LogLine(file.stream(), file.node(), line));
        }
    }

    /** One file read incrementally; a line without its newline yet waits for the next read unless final. */
    private final class Reader {
        private final LogFile file;
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
        private long offset;

        Reader(LogFile file) {
            this.file = file;
        }

        List<String> read(boolean last) {
            byte[] bytes = host.readFrom(file.path(), offset);
            offset += bytes.length;
            List<String> lines = new ArrayList<>();
            for (byte b : bytes) {
                if (b == '\n') {
                    lines.add(partial.toString(StandardCharsets.UTF_8));
                    partial.reset();
                } else {
                    partial.write(b);
                }
            }
            if (last && partial.size() > 0) {
                lines.add(partial.toString(StandardCharsets.UTF_8));
                partial.reset();
            }
            return lines;
        }
    }
}
