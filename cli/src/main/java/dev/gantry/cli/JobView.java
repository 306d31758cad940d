package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.model.JobRecord;
import java.time.Duration;
import java.time.Instant;

/** How jobs look in tables and JSON. */
final class JobView {
    private JobView() {
    }

    static ObjectNode json(JobRecord r) {
        ObjectNode node = Json.object();
        node.put("id", r.id());
        node.put("workload", r.workload());
        node.put("backend", r.backend());
        r.ref().ifPresentOrElse(ref -> node.put("backendJobId", ref.id()), () -> node.putNull("backendJobId"));
        node.put("state", r.state().name());
        if (r.exitCode().isPresent()) {
            node.put("exitCode", r.exitCode().getAsInt());
        } else {
            node.putNull("exitCode");
        }
        node.put("message", r.message());
        node.put("placement", r.placement());
        r.specFile().ifPresentOrElse(f -> node.put("spec", f), () -> node.putNull("spec"));
        node.put("createdAt", r.createdAt().toString());
        r.startedAt().ifPresentOrElse(t -> node.put("startedAt", t.toString()), () -> node.putNull("startedAt"));
        r.endedAt().ifPresentOrElse(t -> node.put("endedAt", t.toString()), () -> node.putNull("endedAt"));
        ObjectNode labels = node.putObject("labels");
        r.labels().forEach(labels::put);
        return node;
    }

    static Table table() {
        return new Table("JOB", "WORKLOAD", "BACKEND", "STATE", "EXIT", "DURATION", "PLACEMENT");
    }

    static void addRow(Table table, JobRecord r) {
        table.row(r.id(), r.workload(), r.backend(), r.state(),
                r.exitCode().isPresent() ? Integer.toString(r.exitCode().getAsInt()) : "-", duration(r), r.placement());
    }

    /** A human one-line summary: "ID: SUCCEEDED (exit 0) after 2.1s". */
    static String summary(JobRecord r) {
        StringBuilder text = new StringBuilder(r.id()).append(": ").append(r.state());
        r.exitCode().ifPresent(code -> text.append(" (exit ").append(code).append(')'));
        String took = duration(r);
        if (!took.equals("-")) {
            text.append(" after ").append(took);
        }
        text.append(" on ").append(r.backend());
        if (!r.state().name().equals("SUCCEEDED") && !r.message().isBlank()) {
            text.append(": ").append(r.message());
        }
        return text.toString();
    }

    static String duration(JobRecord r) {
        if (r.startedAt().isEmpty()) {
            return "-";
        }
        Instant end = r.endedAt().orElse(Instant.now());
        return duration(Duration.between(r.startedAt().get(), end));
    }

    /** A duration as people read it: "<1s", "4.2s", "3m12s", "2h5m"; "-" for a negative one. */
    static String duration(Duration d) {
        if (d.isNegative()) {
            return "-";
        }
        long seconds = d.getSeconds();
        if (seconds < 1) {
            return "<1s";
        }
        if (seconds < 60) {
            return String.format(java.util.Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + seconds % 60 + "s";
        }
        return seconds / 3600 + "h" + seconds % 3600 / 60 + "m";
    }
}
