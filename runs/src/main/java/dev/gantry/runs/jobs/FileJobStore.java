package dev.gantry.runs.jobs;

import dev.gantry.model.JobRecord;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.core.files.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * The job records of an earlier Gantry: one JSON file per job under {@code <state>/jobs/}, written to a temporary
 * file, forced to disk and renamed. The state database imports them ({@code SqlJobStore}); writing them is left for
 * the tests that stand in for that Gantry.
 */
public final class FileJobStore {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Path directory;

    public FileJobStore(Path stateDirectory) {
        this.directory = stateDirectory.resolve("jobs");
    }

    public void save(JobRecord record) {
        try {
            AtomicFile.write(file(record.id()), JSON.writeValueAsBytes(toJson(record)));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot write job record " + record.id() + " under "
                    + directory + ": " + e.getMessage(), e);
        }
    }

    public Optional<JobRecord> find(String id) {
        if (!id.matches("[A-Za-z0-9._-]{1,128}")) {
            return Optional.empty();
        }
        Path file = file(id);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(read(file));
    }

    public List<JobRecord> list() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<JobRecord> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().endsWith(".json") && !f.getFileName().toString().startsWith("."))
                    .forEach(f -> records.add(read(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        records.sort(Comparator.comparing(JobRecord::createdAt).thenComparing(JobRecord::id));
        return records;
    }

    private Path file(String id) {
        return directory.resolve(id + ".json");
    }

    private static ObjectNode toJson(JobRecord r) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", r.id());
        node.put("workload", r.workload());
        r.specFile().ifPresent(f -> node.put("specFile", f));
        node.put("backend", r.backend());
        r.ref().ifPresent(ref -> node.put("backendJobId", ref.id()));
        node.put("stage", r.stage().name());
        node.put("state", r.state().name());
        r.exitCode().ifPresent(code -> node.put("exitCode", code));
        node.put("message", r.message());
        node.put("placement", r.placement());
        node.put("createdAt", r.createdAt().toString());
        node.put("updatedAt", r.updatedAt().toString());
        r.startedAt().ifPresent(t -> node.put("startedAt", t.toString()));
        r.endedAt().ifPresent(t -> node.put("endedAt", t.toString()));
        if (!r.labels().isEmpty()) {
            r.labels().forEach(node.putObject("labels")::put);
        }
        return node;
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new LinkedHashMap<>();
        node.fields().forEachRemaining(field -> labels.put(field.getKey(), field.getValue().asText()));
        return labels;
    }

    private static JobRecord read(Path file) {
        try {
            JsonNode n = JSON.readTree(file.toFile());
            String backend = n.path("backend").asText();
            return new JobRecord(
                    n.path("id").asText(),
                    n.path("workload").asText(),
                    text(n, "specFile"),
                    backend,
                    text(n, "backendJobId").map(id -> new JobRef(backend, id)),
                    JobRecord.Stage.valueOf(n.path("stage").asText()),
                    JobState.valueOf(n.path("state").asText()),
                    n.has("exitCode") ? OptionalInt.of(n.get("exitCode").asInt()) : OptionalInt.empty(),
                    n.path("message").asText(),
                    n.path("placement").asText(),
                    Instant.parse(n.path("createdAt").asText()),
                    Instant.parse(n.path("updatedAt").asText()),
                    text(n, "startedAt").map(Instant::parse),
                    text(n, "endedAt").map(Instant::parse)).withLabels(labels(n.path("labels")));
        } catch (IOException | RuntimeException e) {
            throw new GantryException(ErrorCode.INTERNAL, "job record " + file + " is unreadable (" + e.getMessage()
                    + "); move it aside to continue", e);
        }
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
    }
}
