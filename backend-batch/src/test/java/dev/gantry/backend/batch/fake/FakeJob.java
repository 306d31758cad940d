package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A job: the body it was added with, its state, and its tasks by lower-cased id (ids are case-insensitive). */
final class FakeJob {
    final String id;
    final ObjectNode added;
    final Instant creationTime;
    String state = "active";
    Instant stateTransitionTime;
    String terminateReason;
    final Map<String, FakeTask> tasks = new LinkedHashMap<>();

    FakeJob(String id, ObjectNode added, Instant now) {
        this.id = id;
        this.added = added;
        this.creationTime = now;
        this.stateTransitionTime = now;
    }

    String poolId() {
        return added.path("poolInfo").path("poolId").asText();
    }

    boolean usesTaskDependencies() {
        return added.path("usesTaskDependencies").asBoolean(false);
    }

    FakeTask task(String taskId) {
        return tasks.get(taskId.toLowerCase(Locale.ROOT));
    }

    ObjectNode json(String baseUrl) {
        ObjectNode job = added.deepCopy();
        job.put("url", baseUrl + "/jobs/" + id);
        job.put("eTag", Json.etag(stateTransitionTime));
        job.put("lastModified", Json.time(stateTransitionTime));
        job.put("creationTime", Json.time(creationTime));
        job.put("state", state);
        job.put("stateTransitionTime", Json.time(stateTransitionTime));
        if (!job.has("onAllTasksComplete")) {
            job.put("onAllTasksComplete", "noaction");
        }
        ObjectNode execution = job.putObject("executionInfo");
        execution.put("startTime", Json.time(creationTime));
        execution.put("poolId", poolId());
        if (state.equals("completed")) {
            execution.put("endTime", Json.time(stateTransitionTime));
            execution.put("terminateReason", terminateReason == null ? "UserTerminate" : terminateReason);
        }
        return job;
    }
}
