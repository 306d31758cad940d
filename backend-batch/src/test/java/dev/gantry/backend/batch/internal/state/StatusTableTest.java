package dev.gantry.backend.batch.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.ResizeError;
import com.microsoft.azure.batch.protocol.models.SubtaskInformation;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.WireJson;
import dev.gantry.testing.GoldenFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The status table over recorded task JSON ({@code state/status-cases.json}), each task read by the SDK's own
 * serializer as the client reads a list-tasks page, and the published list-tasks example.
 */
class StatusTableTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/status");
    private static final Path CASES = Path.of("src/test/resources/state/status-cases.json");
    private static final Path PUBLISHED = Path.of("src/test/resources/state/published/TaskList.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant EVICTED = Instant.parse("2026-06-01T10:20:00Z");

    @Test
    void everyRowOfTheTable() throws IOException {
        StringBuilder table = new StringBuilder();
        for (JsonNode row : JSON.readTree(Files.readString(CASES))) {
            CloudTask task = WireJson.read(row.get("task").toString(), CloudTask.class);
            JsonNode gantry = row.path("gantry");
            int evictions = gantry.path("evictions").asInt(0);
            TaskRecord record = new TaskRecord(gantry.path("program").asText("python3"),
                    gantry.path("cancelled").asBoolean(false), evictions, evictions == 0 ? Optional.empty()
                    : Optional.of(new Eviction(EVICTED, "Batch node tvmps_0c1d_p preempted (Spot)")), Optional.empty());
            Optional<String> waiting = row.has("resizeErrors") ? ResizeErrors.waitingReason(
                    "gantry-d2s-v5-0123456789ab", "Standard_D2s_v5", WireJson.read(row.get("resizeErrors").toString(),
                            new TypeReference<List<ResizeError>>() { }.getType())) : Optional.empty();
            Optional<RankFailures.Failure> rank = row.has("subtasks") ? RankFailures.describe(WireJson.read(
                    row.get("subtasks").toString(), new TypeReference<List<SubtaskInformation>>() { }.getType()),
                    JSON.convertValue(row.get("rankOfNode"), new TypeReference<Map<String, Integer>>() { }))
                    : Optional.empty();
            table.append(row.get("name").asText()).append("\n  ").append(line(StatusTable.map(task, record, waiting,
                    rank))).append("\n");
        }
        GOLDEN.assertMatches("table.txt", table.toString());
    }

    @Test
    void thePublishedListTasksExampleIsReadAndMapped() throws IOException {
        JsonNode body = JSON.readTree(Files.readString(PUBLISHED)).at("/responses/200/body/value");
        List<JobState> states = new ArrayList<>();
        for (JsonNode task : body) {
            states.add(StatusTable.map(WireJson.read(task.toString(), CloudTask.class), TaskRecord.submitted("cmd"),
                    Optional.empty(), Optional.empty()).state());
        }
        assertEquals(List.of(JobState.PENDING, JobState.PENDING), states);
    }

    private static String line(JobStatus status) {
        return status.state() + (status.exitCode().isPresent() ? " exit=" + status.exitCode().getAsInt() : "")
                + " | " + status.message() + " | started=" + status.startedAt().map(Instant::toString).orElse("-")
                + " ended=" + status.endedAt().map(Instant::toString).orElse("-") + " evictions=" + status.evictions()
                + status.lastEviction().map(e -> " last=" + e.at() + " " + e.reason()).orElse("");
    }
}
