package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void jobRecordRoundTripsAwkwardText() {
        JobRecord record = new JobRecord("train", List.of("printf", "a \"b\" \\c", "line\nbreak", "\u0001", "日本", ""),
                List.of("HF_TOKEN", "MODE"), "/srv/project dir", Instant.parse("2026-01-02T03:04:05.123Z"), "run-1");
        assertEquals(Optional.of(record), JobRecord.parse(record.toJson()));
    }

    @Test
    void goldenLayout() {
        JobRecord record = new JobRecord("train", List.of("python", "train.py"), List.of("MODE"), "/srv/project",
                Instant.parse("2026-01-02T03:04:05Z"), "run-1");
        assertEquals("{\n"
                + "  \"workload\": \"train\",\n"
                + "  \"command\": [\"python\", \"train.py\"],\n"
                + "  \"envNames\": [\"MODE\"],\n"
                + "  \"workingDirectory\": \"/srv/project\",\n"
                + "  \"created\": \"2026-01-02T03:04:05Z\",\n"
                + "  \"idempotencyKey\": \"run-1\"\n"
                + "}\n", record.toJson());
    }

    @Test
    void damagedRecordReadsAsAbsent() {
        assertTrue(JobRecord.parse("{\"workload\": ").isEmpty());
        assertTrue(JobRecord.parse("{}").isEmpty());
    }
}
