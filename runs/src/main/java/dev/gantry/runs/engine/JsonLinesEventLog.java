package dev.gantry.runs.engine;

import dev.gantry.model.RunEvent;
import dev.gantry.model.RunListener;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Mirrors each run's history into {@code DIRECTORY/RUN.events.jsonl}, one JSON object per event, for tools that tail a
 * file (a log shipper, {@code jq}): the fields of {@code gantry history RUN --output json}. The state database stays
 * the record; the file holds what the processes that drove the run on this machine heard, each event once (a process
 * that takes a run over skips what the file has), in order.
 */
public final class JsonLinesEventLog implements RunListener {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;
    private final Map<String, Long> written = new HashMap<>();

    public JsonLinesEventLog(Path directory) {
        this.directory = directory;
    }

    /** The file of a run's events. */
    public Path file(String runId) {
        return directory.resolve(runId + ".events.jsonl");
    }

    @Override
    public void event(RunEvent event) {
        long last = written.computeIfAbsent(event.runId(), this::lastInFile);
        if (event.sequence() <= last) {
            return;
        }
        try {
            Files.createDirectories(directory);
            Files.writeString(file(event.runId()), event.jsonLine() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file(event.runId()) + ": " + e.getMessage(), e);
        }
        written.put(event.runId(), event.sequence());
    }

    /** A process killed in the middle of a line leaves it cut short: it goes, so the next line starts clean. */
    private static void dropTornLine(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        if (end < bytes.length) {
            try (var channel = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(end);
            }
        }
    }

    private long lastInFile(String runId) {
        Path file = file(runId);
        if (!Files.exists(file)) {
            return 0;
        }
        try {
            dropTornLine(file);
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return JSON.readTree(lines.get(i)).path("sequence").asLong(0);
                }
            }
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
