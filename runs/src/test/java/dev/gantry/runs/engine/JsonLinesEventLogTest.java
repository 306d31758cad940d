package dev.gantry.runs.engine;

import dev.gantry.model.RunEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesEventLogTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    @TempDir
    Path dir;

    private static RunEvent event(long sequence, String step, String kind) {
        return new RunEvent("r-1", sequence, T0.plusSeconds(sequence), Optional.ofNullable(step), kind, "detail "
                + sequence);
    }

    @Test
    void eachEventIsOneLineOnceAlsoWhenAnotherProcessHearsTheHistoryFromTheStart() throws Exception {
        JsonLinesEventLog first = new JsonLinesEventLog(dir);
        first.event(event(1, null, RunEvent.STARTED));
        first.event(event(2, "train", RunEvent.SUBMITTED));
        first.event(event(2, "train", RunEvent.SUBMITTED));
        JsonLinesEventLog second = new JsonLinesEventLog(dir); // a process that took the run over
        for (long n = 1; n <= 3; n++) {
            second.event(event(n, n == 1 ? null : "train", n == 3 ? RunEvent.ENDED : RunEvent.SUBMITTED));
        }
        assertEquals(List.of(
                "{\"run\":\"r-1\",\"sequence\":1,\"at\":\"2026-12-03T10:00:01Z\",\"kind\":\"started\","
                        + "\"detail\":\"detail 1\"}",
                "{\"run\":\"r-1\",\"sequence\":2,\"at\":\"2026-12-03T10:00:02Z\",\"step\":\"train\","
                        + "\"kind\":\"submitted\","
                        + "\"detail\":\"detail 2\"}",
                "{\"run\":\"r-1\",\"sequence\":3,\"at\":\"2026-12-03T10:00:03Z\",\"step\":\"train\",\"kind\":\"ended\","
                        + "\"detail\":\"detail 3\"}"), Files.readAllLines(second.file("r-1")));
    }

    @Test
    void aLineCutShortByAKilledProcessIsDroppedBeforeTheNextIsWritten() throws Exception {
        JsonLinesEventLog first = new JsonLinesEventLog(dir);
        first.event(event(1, null, RunEvent.STARTED));
        Files.writeString(first.file("r-1"), "{\"run\":\"r-1\",\"seq", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        new JsonLinesEventLog(dir).event(event(2, "train", RunEvent.SUBMITTED));
        List<String> lines = Files.readAllLines(first.file("r-1"));
        assertEquals(2, lines.size(), lines.toString());
        assertEquals(true, lines.get(1).startsWith("{\"run\":\"r-1\",\"sequence\":2,"), lines.toString());
    }
}
