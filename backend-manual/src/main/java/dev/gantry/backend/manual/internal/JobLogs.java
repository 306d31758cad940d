package dev.gantry.backend.manual.internal;

import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.jobs.JobDirectory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Reads a job's stdout and stderr files as lines: all, the last N, or followed by polling until the job has ended and
 * both files are drained. Lines split on {@code \n} only and are decoded whole, so multi-byte characters survive.
 */
final class JobLogs {
    private final Host host;
    private final JobDirectory job;
    private final BooleanSupplier ended;
    private final Duration poll;

    JobLogs(Host host, JobDirectory job, BooleanSupplier ended, Duration poll) {
        this.host = host;
        this.job = job;
        this.ended = ended;
        this.poll = poll;
    }

    void deliver(LogOptions options, LogSink sink) throws InterruptedException {
        List<Reader> readers = new ArrayList<>();
        if (options.stdout()) {
            readers.add(new Reader(LogLine.Stream.STDOUT, job.file(JobDirectory.STDOUT)));
        }
        if (options.stderr()) {
            readers.add(new Reader(LogLine.Stream.STDERR, job.file(JobDirectory.STDERR)));
        }
        if (!options.follow()) {
            for (Reader reader : readers) {
                emit(tail(reader.read(true), options), reader.stream, sink);
            }
            return;
        }
        boolean first = true;
        while (true) {
            // Ask before reading: output written before the job ended is then certain to be read below.
            boolean done = ended.getAsBoolean();
            for (Reader reader : readers) {
                List<String> lines = reader.read(done);
                emit(first ? tail(lines, options) : lines, reader.stream, sink);
            }
            first = false;
            if (done) {
                return;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("following the logs of " + job.path() + " was interrupted");
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

    private static void emit(List<String> lines, LogLine.Stream stream, LogSink sink) {
        for (String line : lines) {
            sink.accept(new LogLine(stream, 0, line));
        }
    }

    /** One file read incrementally; a line without its newline yet waits for the next read unless final. */
    private final class Reader {
        private final LogLine.Stream stream;
        private final String path;
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
        private long offset;

        Reader(LogLine.Stream stream, String path) {
            this.stream = stream;
            this.path = path;
        }

        List<String> read(boolean last) {
            byte[] bytes = host.readFrom(path, offset);
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
