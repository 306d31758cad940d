package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Tasks: add, add a collection (up to 100, each answered on its own), list, get, terminate, list subtasks. */
final class TaskRoutes {
    /** Batch's limit on the combined length of a task's dependency ids. */
    static final int MAX_DEPENDENCY_ID_CHARACTERS = 64_000;
    static final int MAX_TASKS_PER_COLLECTION = 100;

    private final FakeState state;
    private final TaskLifecycle tasks;

    TaskRoutes(FakeState state, TaskLifecycle tasks) {
        this.state = state;
        this.tasks = tasks;
    }

    FakeResponse add(FakeRequest request) {
        FakeJob job = activeJob(request.segment(1));
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("TaskAddParameter", body);
        FakeTask task = create(job, body);
        return Replies.created(state.baseUrl, "/jobs/" + job.id + "/tasks/" + task.id());
    }

    FakeResponse addCollection(FakeRequest request) {
        FakeJob job = activeJob(request.segment(1));
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("TaskAddCollectionParameter", body);
        int count = body.get("value").size();
        if (count > MAX_TASKS_PER_COLLECTION) {
            throw BatchError.invalidProperty("value", Integer.toString(count), "a collection holds at most "
                    + MAX_TASKS_PER_COLLECTION + " tasks");
        }
        ObjectNode reply = Json.object();
        reply.put("odata.metadata", state.baseUrl + "/$metadata#taskaddresult");
        ArrayNode results = reply.putArray("value");
        for (JsonNode added : body.get("value")) {
            ObjectNode result = results.addObject();
            result.put("taskId", added.get("id").asText());
            try {
                FakeTask task = create(job, (ObjectNode) added);
                result.put("status", "success");
                result.put("eTag", task.json.get("eTag").asText());
                result.put("lastModified", task.json.get("lastModified").asText());
                result.put("location", task.json.get("url").asText());
            } catch (BatchError e) {
                result.put("status", e.status >= 500 ? "servererror" : "clienterror");
                result.set("error", ErrorBody.error(e, state.baseUrl, null));
            }
        }
        return FakeResponse.json(200, reply);
    }

    FakeResponse list(FakeRequest request) {
        FakeJob job = state.job(request.segment(1));
        List<ObjectNode> list = new ArrayList<>();
        job.tasks.values().forEach(task -> list.add(task.json));
        return ODataList.page(request, state.baseUrl, "tasks", list, FilterTable.TASKS, Selectable.TASK);
    }

    FakeResponse get(FakeRequest request) {
        FakeTask task = state.task(request.segment(1), request.segment(3));
        return Replies.entity(state.baseUrl, "tasks/@Element", ODataList.project(task.json,
                ODataList.select(request.param("$select"), Selectable.TASK)));
    }

    FakeResponse terminate(FakeRequest request) {
        FakeTask task = state.task(request.segment(1), request.segment(3));
        tasks.terminate(task, state.now());
        return FakeResponse.empty(204).header("DataServiceId", task.json.get("url").asText());
    }

    FakeResponse listSubtasks(FakeRequest request) {
        FakeTask task = state.task(request.segment(1), request.segment(3));
        ObjectNode reply = Json.object();
        reply.put("odata.metadata", state.baseUrl + "/$metadata#subtaskinfo");
        ArrayNode value = reply.putArray("value");
        // The primary is the task itself; Batch lists the other instances.
        task.subtasks.stream().skip(1).forEach(subtask -> value.add(subtask.deepCopy()));
        return FakeResponse.json(200, reply);
    }

    private FakeJob activeJob(String id) {
        FakeJob job = state.job(id);
        if (!job.state.equals("active")) {
            throw BatchError.conflict("JobCompleted", "The specified job is already in a completed state.");
        }
        return job;
    }

    private FakeTask create(FakeJob job, ObjectNode body) {
        String id = Ids.check("id", body.get("id").asText());
        if (job.task(id) != null) {
            throw BatchError.conflict("TaskExists", "The specified task already exists.");
        }
        JsonNode dependsOn = body.get("dependsOn");
        if (dependsOn != null) {
            if (!job.usesTaskDependencies()) {
                throw BatchError.conflict("TaskDependenciesNotSpecifiedOnJob", "The specified job does not have "
                        + "task dependencies enabled (usesTaskDependencies).");
            }
            int characters = 0;
            for (JsonNode dependency : dependsOn.path("taskIds")) {
                characters += dependency.asText().length();
            }
            if (characters > MAX_DEPENDENCY_ID_CHARACTERS) {
                throw new BatchError(400, "TaskDependencyListTooLong", "The task depends on too many tasks: their "
                        + "ids have " + characters + " characters, more than " + MAX_DEPENDENCY_ID_CHARACTERS + ".");
            }
        }
        int instances = body.path("multiInstanceSettings").path("numberOfInstances").asInt(1);
        if (instances < 1) {
            throw BatchError.invalidProperty("multiInstanceSettings.numberOfInstances", Integer.toString(instances),
                    "must be at least 1");
        }
        Instant now = state.now();
        ObjectNode json = body.deepCopy();
        json.put("url", state.baseUrl + "/jobs/" + job.id + "/tasks/" + id);
        json.put("creationTime", Json.time(now));
        json.put("state", "active");
        json.put("stateTransitionTime", Json.time(now));
        ObjectNode constraints = json.with("constraints");
        if (!constraints.has("maxWallClockTime")) {
            constraints.put("maxWallClockTime", "P10675199DT2H48M5.4775807S");
        }
        if (!constraints.has("retentionTime")) {
            constraints.put("retentionTime", "P7D");
        }
        if (!constraints.has("maxTaskRetryCount")) {
            constraints.put("maxTaskRetryCount", job.added.path("constraints").path("maxTaskRetryCount").asInt(0));
        }
        if (!json.has("requiredSlots")) {
            json.put("requiredSlots", 1);
        }
        FakeTask task = new FakeTask(job.id, json);
        task.touch(now);
        job.tasks.put(FakeState.key(id), task);
        return task;
    }
}
