package org.example.gantry.podman.internal;

import dev.gantry.api.backend.LogLine;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Reads podman's k8s-file log: the Kubernetes CRI log format, one record per line,
 * {@code TIMESTAMP STREAM TAG CONTENT}, where STREAM is {@code stdout} or {@code stderr} and TAG is {@code F} for the
 * end of a line or {@code P} for a part of a longer one (podman splits long lines, and writes a line's start before
 * its end has come). Parts are joined per stream into whole lines. A reader keeps the parts it has seen, so that it can
 * be fed the file as it grows.
 */
public final class CriLog {
    private final Map<LogLine.Stream, StringBuilder> partial = new EnumMap<>(LogLine.Stream.class);

    /** Every whole line of a complete log text, in order. */
    public static List<LogLine> parse(String text) {
        CriLog log = new CriLog();
        List<LogLine> lines = new ArrayList<>();
        for (String record : text.split("\n", -1)) {
            log.accept(record).ifPresent(lines::add);
        }
        return lines;
    }

    /** Reads one record (without its line break); a whole line once its end has come. */
    public java.util.Optional<LogLine> accept(String record) {
        int first = record.indexOf(' ');
        int second = first < 0 ? -1 : record.indexOf(' ', first + 1);
        if (second < 0) {
            return java.util.Optional.empty(); // an empty or torn record carries no output
        }
        LogLine.Stream stream = switch (record.substring(first + 1, second)) {
            case "stdout" -> LogLine.Stream.STDOUT;
            case "stderr" -> LogLine.Stream.STDERR;
            default -> null;
        };
        if (stream == null) {
            return java.util.Optional.empty();
        }
        int third = record.indexOf(' ', second + 1);
        String tag = third < 0 ? record.substring(second + 1) : record.substring(second + 1, third);
        String content = third < 0 ? "" : record.substring(third + 1);
        StringBuilder line = partial.computeIfAbsent(stream, s -> new StringBuilder()).append(content);
        if (tag.startsWith("P")) {
            return java.util.Optional.empty();
        }
        partial.remove(stream);
        return java.util.Optional.of(new LogLine(stream, 0, line.toString()));
    }
}
