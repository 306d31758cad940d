package dev.gantry.backend.manual.internal;

import java.time.Instant;
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

    public String toJson() {
        return "{\n"
                + "  \"workload\": " + Json.quote(workload) + ",\n"
                + "  \"command\": " + Json.list(command) + ",\n"
                + "  \"envNames\": " + Json.list(envNames) + ",\n"
                + "  \"workingDirectory\": " + Json.quote(workingDirectory) + ",\n"
                + "  \"created\": " + Json.quote(created.toString()) + ",\n"
                + "  \"idempotencyKey\": " + Json.quote(idempotencyKey) + "\n"
                + "}\n";
    }

    @SuppressWarnings("unchecked")
    public static Optional<JobRecord> parse(String json) {
        try {
            Map<String, Object> o = Json.parseObject(json);
            return Optional.of(new JobRecord((String) o.get("workload"), (List<String>) o.get("command"),
                    (List<String>) o.get("envNames"), (String) o.get("workingDirectory"),
                    Instant.parse((String) o.get("created")), (String) o.get("idempotencyKey")));
        } catch (RuntimeException e) {
            return Optional.empty(); // a damaged record still lets status answer from the other files
        }
    }
}
