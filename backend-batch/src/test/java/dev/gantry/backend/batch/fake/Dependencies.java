package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a task's {@code dependsOn} ({@code taskIds} and {@code taskIdRanges}) lets it run: every task it names
 * has completed with the dependency action {@code satisfy}. One that does not exist yet, runs still, or completed
 * with {@code block} holds it for ever, as Batch holds it.
 */
final class Dependencies {
    private Dependencies() {
    }

    static boolean satisfied(FakeJob job, FakeTask task) {
        JsonNode dependsOn = task.json.path("dependsOn");
        List<String> ids = new ArrayList<>();
        dependsOn.path("taskIds").forEach(id -> ids.add(id.asText()));
        for (JsonNode range : dependsOn.path("taskIdRanges")) {
            for (int id = range.get("start").asInt(); id <= range.get("end").asInt(); id++) {
                ids.add(Integer.toString(id));
            }
        }
        for (String id : ids) {
            FakeTask dependency = job.task(id);
            // A dependency that does not exist yet, has not completed or completed with "block" holds the task for
            // ever, as Batch holds it.
            if (dependency == null || !dependency.state().equals("completed")
                    || !"satisfy".equals(dependency.dependencyAction)) {
                return false;
            }
        }
        return true;
    }
}
