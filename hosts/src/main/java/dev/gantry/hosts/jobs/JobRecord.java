package dev.gantry.hosts.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.hosts.json.internal.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code job.json} records about a job: enough to explain it later, never a secret value (environment NAMES
 * only; values live in the process environment alone).
 */
public record JobRecord(String workload, List<String> command, List<String> envNames, String workingDirectory,
                        Instant created, String idempotencyKey) {
    public JobRecord {
        Objects.requireNonNull(workload, "workload");
        command = List.copyOf(command);
        envNames = List.copyOf(envNames);
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /** The program the job runs, as given. */
    public String program() {
        return command.isEmpty() ? "" : command.get(0);
    }

    /** The record as {@code job.json}: one member per line, the lists on their member's line. */
    public String toJson() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("workload", workload);
        members.put("command", command);
        members.put("envNames", envNames);
        members.put("workingDirectory", workingDirectory);
        members.put("created", created.toString());
        members.put("idempotencyKey", idempotencyKey);
        return Json.write(members, Json.Layout.INLINE_ARRAYS);
    }

    /**
     * Reads {@code job.json}; empty when it is not a complete record (a damaged record still lets status answer from
     * the other files). Members a later version adds are ignored.
     */
    public static Optional<JobRecord> parse(String json) {
        try {
            JsonNode o = Json.parse(json);
            return Optional.of(new JobRecord(text(o, "workload"), texts(o, "command"), texts(o, "envNames"),
                    text(o, "workingDirectory"), Instant.parse(text(o, "created")), text(o, "idempotencyKey")));
        } catch (Json.MalformedJson | IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonNode record, String member) {
        JsonNode value = record.path(member);
        if (!value.isTextual()) {
            throw new IllegalArgumentException(member + " must be text");
        }
        return value.textValue();
    }

    private static List<String> texts(JsonNode record, String member) {
        JsonNode values = record.path(member);
        if (!values.isArray()) {
            throw new IllegalArgumentException(member + " must be a list");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isTextual()) {
                throw new IllegalArgumentException(member + " must hold text only");
            }
            texts.add(value.textValue());
        }
        return texts;
    }
}
