package dev.gantry.backend.batch.internal.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A {@link TaskEntry} as the JSON of its file, field by field (no reflection, so a renamed component never silently
 * changes the format). Version 1.
 */
final class EntryJson {
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private EntryJson() {
    }

    static byte[] write(TaskEntry entry) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("ref", entry.ref().id());
        root.put("idempotencyKey", entry.idempotencyKey());
        root.put("poolId", entry.poolId());
        root.put("submittedAt", entry.submittedAt().toString());
        root.put("phase", entry.phase().name());
        root.set("record", record(entry.record()));
        entry.terminal().ifPresent(status -> root.set("terminal", status(status)));
        dependencies(root.putArray("held"), entry.held());
        root.put("nodes", entry.nodes());
        dependencies(root.putArray("dependencies"), entry.dependencies());
        entry.heldTask().ifPresent(task -> root.put("heldTask", task));
        entry.secretsBlob().ifPresent(blob -> root.put("secretsBlob", blob));
        entry.failure().ifPresent(failure -> root.put("failure", failure));
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entry; an {@link IllegalArgumentException} naming the field that is missing or wrong. */
    static TaskEntry read(byte[] bytes) throws IOException {
        JsonNode root = JSON.readTree(bytes);
        if (root == null || root.path("version").asInt(-1) != VERSION) {
            throw new IllegalArgumentException("not a version " + VERSION + " task entry");
        }
        TaskRef ref = TaskRef.parse(text(root, "ref")).orElseThrow(() -> new IllegalArgumentException("ref '"
                + root.path("ref").asText() + "' is not ACCOUNT.JOB.TASK"));
        List<JobDependency> held = dependencies(root.path("held"));
        // "nodes" and "dependencies" came after the first entries were written: those read as one node, held only.
        int nodes = root.has("nodes") ? root.path("nodes").asInt() : 1;
        List<JobDependency> all = root.has("dependencies") ? dependencies(root.path("dependencies")) : held;
        return new TaskEntry(ref, text(root, "idempotencyKey"), text(root, "poolId"),
                Instant.parse(text(root, "submittedAt")), TaskEntry.Phase.valueOf(text(root, "phase")),
                record(root.path("record")), optional(root, "terminal").map(EntryJson::status), held,
                optionalText(root, "heldTask"), optionalText(root, "secretsBlob"), optionalText(root, "failure"),
                nodes, all);
    }

    private static void dependencies(ArrayNode array, List<JobDependency> dependencies) {
        for (JobDependency dependency : dependencies) {
            array.addObject().put("backend", dependency.job().backend()).put("id", dependency.job().id())
                    .put("condition", dependency.condition().name());
        }
    }

    private static List<JobDependency> dependencies(JsonNode array) {
        List<JobDependency> dependencies = new ArrayList<>();
        for (JsonNode dependency : array) {
            dependencies.add(new JobDependency(new JobRef(text(dependency, "backend"), text(dependency, "id")),
                    JobDependency.Condition.valueOf(text(dependency, "condition"))));
        }
        return dependencies;
    }

    private static ObjectNode record(TaskRecord record) {
        ObjectNode node = JSON.createObjectNode();
        node.put("program", record.program());
        node.put("cancelled", record.cancelled());
        node.put("evictions", record.evictions());
        record.lastEviction().ifPresent(eviction -> node.set("lastEviction", eviction(eviction)));
        record.lastRunning().ifPresent(seen -> node.putObject("lastRunning").put("start", seen.start().toString())
                .put("nodeId", seen.nodeId()));
        return node;
    }

    private static TaskRecord record(JsonNode node) {
        Optional<TaskRecord.Sighting> running = optional(node, "lastRunning").map(seen -> new TaskRecord.Sighting(
                Instant.parse(text(seen, "start")), text(seen, "nodeId")));
        return new TaskRecord(text(node, "program"), node.path("cancelled").asBoolean(),
                node.path("evictions").asInt(), optional(node, "lastEviction").map(EntryJson::eviction), running);
    }

    private static ObjectNode status(JobStatus status) {
        ObjectNode node = JSON.createObjectNode();
        node.put("state", status.state().name());
        status.exitCode().ifPresent(code -> node.put("exitCode", code));
        node.put("message", status.message());
        status.startedAt().ifPresent(at -> node.put("startedAt", at.toString()));
        status.endedAt().ifPresent(at -> node.put("endedAt", at.toString()));
        node.put("evictions", status.evictions());
        status.lastEviction().ifPresent(eviction -> node.set("lastEviction", eviction(eviction)));
        return node;
    }

    private static JobStatus status(JsonNode node) {
        OptionalInt exit = node.has("exitCode") ? OptionalInt.of(node.path("exitCode").asInt()) : OptionalInt.empty();
        return new JobStatus(JobState.valueOf(text(node, "state")), exit, text(node, "message"),
                optionalText(node, "startedAt").map(Instant::parse), optionalText(node, "endedAt").map(Instant::parse),
                node.path("evictions").asInt(), optional(node, "lastEviction").map(EntryJson::eviction));
    }

    private static ObjectNode eviction(Eviction eviction) {
        return JSON.createObjectNode().put("at", eviction.at().toString()).put("reason", eviction.reason());
    }

    private static Eviction eviction(JsonNode node) {
        return new Eviction(Instant.parse(text(node, "at")), text(node, "reason"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' is missing or not text");
        }
        return value.asText();
    }

    private static Optional<String> optionalText(JsonNode node, String field) {
        return node.has(field) ? Optional.of(text(node, field)) : Optional.empty();
    }

    private static Optional<JsonNode> optional(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }
}
