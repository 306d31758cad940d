package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A task: its CloudTask view (the body it was added with plus state, times and executionInfo) and what runs it:
 * the nodes it holds (the primary first), the subtasks of a multi-instance task, and an attempt number so that a
 * process that ends after the task was requeued or terminated changes nothing.
 */
final class FakeTask {
    final String jobId;
    final ObjectNode json;
    final List<String> nodeIds = new ArrayList<>();
    final List<ObjectNode> subtasks = new ArrayList<>();
    int attempt;
    /** Coordination commands still running before the primary's command starts. */
    int coordinationLeft;
    /** satisfy or block, once completed: whether dependents may run. */
    String dependencyAction;

    FakeTask(String jobId, ObjectNode json) {
        this.jobId = jobId;
        this.json = json;
    }

    String id() {
        return json.get("id").asText();
    }

    String state() {
        return json.get("state").asText();
    }

    int instances() {
        return json.path("multiInstanceSettings").path("numberOfInstances").asInt(1);
    }

    ObjectNode execution() {
        return json.has("executionInfo") ? (ObjectNode) json.get("executionInfo") : json.putObject("executionInfo");
    }

    void transition(String next, Instant now) {
        json.put("previousState", state());
        json.put("previousStateTransitionTime", json.get("stateTransitionTime").asText());
        json.put("state", next);
        json.put("stateTransitionTime", Json.time(now));
        touch(now);
    }

    void touch(Instant now) {
        json.put("lastModified", Json.time(now));
        json.put("eTag", Json.etag(now));
    }
}
