package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobRecordTest {
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

    /** A record written by the hand-written writer that came before the JSON library still reads, field for field. */
    @Test
    void readsARecordTheEarlierWriterWrote() throws IOException {
        String old;
        try (InputStream in = JobRecordTest.class.getResourceAsStream("/jobs/job-old-writer.json")) {
            old = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JobRecord expected = new JobRecord("train \"v2\"", List.of("python", "-c", "print(\"a\\tb\")\nexit 0",
                "\u0001\u001f", "日本 \u2028", ""), List.of("HF_TOKEN", "MODE"), "/srv/project dir",
                Instant.parse("2026-01-02T03:04:05.123Z"), "run-1");
        assertEquals(Optional.of(expected), JobRecord.parse(old));
        assertEquals(old, expected.toJson(), "the layout and the escapes are the earlier writer's, byte for byte");
    }

    @Test
    void recordWithWrongTypesReadsAsAbsent() {
        String good = "{\"workload\": \"w\", \"command\": [\"true\"], \"envNames\": [], \"workingDirectory\": \"/\", "
                + "\"created\": \"2026-01-02T03:04:05Z\", \"idempotencyKey\": \"k\"}";
        assertTrue(JobRecord.parse(good).isPresent());
        assertTrue(JobRecord.parse(good.replace("\"w\"", "1")).isEmpty());
        assertTrue(JobRecord.parse(good.replace("[\"true\"]", "[1]")).isEmpty());
        assertTrue(JobRecord.parse(good.replace("[\"true\"]", "\"true\"")).isEmpty());
        assertTrue(JobRecord.parse(good.replace("2026-01-02T03:04:05Z", "yesterday")).isEmpty());
        assertTrue(JobRecord.parse("[" + good + "]").isEmpty());
    }
}
