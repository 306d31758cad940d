package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tasks from {@code active} through {@code preparing} and {@code running} to {@code completed}, as Batch moves them:
 * an active task whose dependencies are satisfied takes idle nodes of its job's pool (as many as its instances);
 * one tick later its resource files are placed and its command starts; its exit completes it, with
 * {@code executionInfo} (times, exit code, result, failureInfo, retry and requeue counts) and its exit conditions
 * (dependency and job actions). A task whose node is preempted goes back to {@code active} and runs again elsewhere,
 * with retryCount and requeueCount unchanged. Every method runs under the state's lock.
 */
final class TaskLifecycle {
    private final FakeState state;
    private final TaskLaunch launch;

    TaskLifecycle(FakeState state) {
        this.state = state;
        this.launch = new TaskLaunch(state);
    }

    void tick(Instant now) {
        for (FakeJob job : List.copyOf(state.jobs.values())) {
            for (FakeTask task : List.copyOf(job.tasks.values())) {
                if (task.state().equals("preparing") && task.coordinationLeft == 0 && !task.nodeIds.isEmpty()) {
                    launch(job, task, now);
                } else if (task.state().equals("running") && pastWallClock(task, now)) {
                    complete(task, null, FailureInfo.of("TaskEnded", "The task was ended by Batch: it ran longer than its "
                            + "maxWallClockTime " + task.json.path("constraints").path("maxWallClockTime").asText()),
                            now);
                }
            }
        }
        for (FakeJob job : List.copyOf(state.jobs.values())) {
            if (!job.state.equals("active")) {
                continue;
            }
            FakePool pool = state.pools.get(FakeState.key(job.poolId()));
            if (pool == null || !pool.state.equals("active")) {
                continue;
            }
            for (FakeTask task : job.tasks.values()) {
                if (task.state().equals("active") && Dependencies.satisfied(job, task)) {
                    assign(pool, task, now);
                }
            }
        }
    }

    private void assign(FakePool pool, FakeTask task, Instant now) {
        // A multi-instance task's nodes are at distinct addresses, so that each rank finds its own in the host list
        // (nodes share an address only when more live than the fake has namespaces).
        Set<String> addresses = new HashSet<>();
        List<FakeNode> idle = pool.nodes.values().stream().filter(n -> n.state.equals("idle"))
                .filter(n -> task.instances() == 1 || addresses.add(n.address)).toList();
        if (idle.size() < task.instances()) {
            return;
        }
        task.nodeIds.clear();
        task.subtasks.clear();
        for (int rank = 0; rank < task.instances(); rank++) {
            FakeNode node = idle.get(rank);
            node.state("running", now);
            node.runningJobId = task.jobId;
            node.runningTaskId = task.id();
            task.nodeIds.add(node.id);
        }
        task.transition("preparing", now);
        task.json.set("nodeInfo", nodeInfo(state.node(pool.id, task.nodeIds.get(0)), task));
    }

    private void launch(FakeJob job, FakeTask task, Instant now) {
        FakePool pool = state.pool(job.poolId());
        int attempt = ++task.attempt;
        ObjectNode execution = task.execution();
        execution.put("startTime", Json.time(now));
        execution.remove(List.of("endTime", "exitCode", "result", "failureInfo"));
        execution.put("retryCount", execution.path("retryCount").asInt(0));
        execution.put("requeueCount", execution.path("requeueCount").asInt(0));
        try {
            for (String nodeId : task.nodeIds) {
                FakeNode node = state.node(pool.id, nodeId);
                JsonNode files = task.json.path("resourceFiles");
                JsonNode common = task.json.path("multiInstanceSettings").path("commonResourceFiles");
                launch.fetchResourceFiles(pool, task, node, common, true);
                if (nodeId.equals(task.nodeIds.get(0))) {
                    launch.fetchResourceFiles(pool, task, node, files, false);
                }
            }
            task.transition("running", now);
            if (task.json.has("multiInstanceSettings")) {
                startCoordination(job, task, attempt, now);
            } else {
                FakeNode node = state.node(pool.id, task.nodeIds.get(0));
                watch(task, attempt, node, launch.start(job, task, node, task.json.get("commandLine").asText(), 0),
                        -1);
            }
        } catch (TaskLaunch.ResourceFileFailure e) {
            complete(task, null, FailureInfo.of(e.code, e.getMessage()), now);
        } catch (IOException e) {
            complete(task, null, FailureInfo.of("CommandProgramNotFound", "cannot start the command: " + e.getMessage()),
                    now);
        }
    }

    private void startCoordination(FakeJob job, FakeTask task, int attempt, Instant now) throws IOException {
        task.coordinationLeft = task.nodeIds.size();
        String coordination = task.json.get("multiInstanceSettings").get("coordinationCommandLine").asText();
        for (int rank = 0; rank < task.nodeIds.size(); rank++) {
            FakeNode node = state.node(job.poolId(), task.nodeIds.get(rank));
            ObjectNode subtask = Json.object();
            subtask.put("id", rank);
            subtask.set("nodeInfo", nodeInfo(node, task));
            subtask.put("startTime", Json.time(now));
            subtask.put("state", "running");
            subtask.put("stateTransitionTime", Json.time(now));
            task.subtasks.add(subtask);
            watch(task, attempt, node, launch.start(job, task, node, coordination, rank), rank);
        }
    }

    /** Follows a process: a coordination command ({@code rank} ≥ 0) or the task's own command (-1). */
    private void watch(FakeTask task, int attempt, FakeNode node, NodeProcesses.Handle handle, int rank) {
        node.processes.add(handle);
        handle.exitCode().whenComplete((code, error) -> {
            synchronized (state) {
                if (task.attempt != attempt || !task.state().equals("running")) {
                    return;
                }
                int exit = code == null ? -1 : code;
                if (rank < 0) {
                    ended(task, exit, state.now());
                } else {
                    coordinationEnded(task, rank, exit, state.now());
                }
            }
        });
    }

    private void coordinationEnded(FakeTask task, int rank, int exit, Instant now) {
        task.subtasks.get(rank).put("exitCode", exit);
        if (exit != 0) {
            ended(task, exit, now);
            return;
        }
        if (--task.coordinationLeft == 0) {
            FakeJob job = state.job(task.jobId);
            FakeNode primary = state.node(job.poolId(), task.nodeIds.get(0));
            try {
                watch(task, task.attempt, primary,
                        launch.start(job, task, primary, task.json.get("commandLine").asText(), 0), -1);
            } catch (IOException e) {
                complete(task, null, FailureInfo.of("CommandProgramNotFound", e.getMessage()), now);
            }
        }
    }

    private void ended(FakeTask task, int exit, Instant now) {
        if (!task.subtasks.isEmpty()) {
            task.subtasks.get(0).put("exitCode", exit);
        }
        ObjectNode failure = exit == 0 ? null
                : FailureInfo.of("FailureExitCode", "The task exited with an exit code representing a failure");
        int retries = task.execution().path("retryCount").asInt(0);
        if (exit != 0 && retries < maxRetries(task)) {
            release(task, now);
            task.execution().put("retryCount", retries + 1);
            task.transition("active", now);
            return;
        }
        complete(task, exit, failure, now);
    }

    /** Completes the task (exit code null when its command never ran or was ended), freeing its nodes. */
    void complete(FakeTask task, Integer exit, ObjectNode failureInfo, Instant now) {
        release(task, now);
        ObjectNode execution = task.execution();
        if (!execution.has("startTime")) {
            execution.put("retryCount", 0);
            execution.put("requeueCount", 0);
        }
        execution.put("endTime", Json.time(now));
        if (exit != null) {
            execution.put("exitCode", exit);
        }
        execution.put("result", failureInfo == null ? "success" : "failure");
        if (failureInfo != null) {
            execution.set("failureInfo", failureInfo);
        }
        for (ObjectNode subtask : task.subtasks) {
            subtask.put("previousState", subtask.path("state").asText());
            subtask.put("state", "completed");
            subtask.put("endTime", Json.time(now));
            subtask.put("result", subtask.path("exitCode").asInt(0) == 0 ? "success" : "failure");
        }
        task.attempt++;
        task.coordinationLeft = 0;
        task.transition("completed", now);
        ExitConditions.Action action = ExitConditions.action(task.json.path("exitConditions"), exit,
                failureInfo != null);
        task.dependencyAction = action.dependencyAction();
        FakeJob job = state.job(task.jobId);
        if (action.jobAction().equals("terminate")
                && (failureInfo == null || "performexitoptionsjobaction".equals(
                        job.added.path("onTaskFailure").asText()))) {
            terminateJob(job, "TaskFailed", now);
        }
    }

    /** Ends a task on request: its processes are killed and it completes with TaskEnded. */
    void terminate(FakeTask task, Instant now) {
        if (task.state().equals("completed")) {
            throw BatchError.conflict("TaskCompleted", "The specified task is already completed.");
        }
        complete(task, null, FailureInfo.of("TaskEnded", "Task Was Ended by User Request"), now);
    }

    /** Puts a task whose node went away back to active, as Batch does after a preemption. */
    void requeue(FakeTask task, Instant now) {
        release(task, now);
        task.attempt++;
        task.coordinationLeft = 0;
        task.json.remove("nodeInfo");
        task.transition("active", now);
    }

    void terminateJob(FakeJob job, String reason, Instant now) {
        for (FakeTask task : job.tasks.values()) {
            if (!task.state().equals("completed")) {
                complete(task, null, FailureInfo.of("TaskEnded", "Task Was Ended by User Request"), now);
            }
        }
        job.state = "completed";
        job.terminateReason = reason;
        job.stateTransitionTime = now;
    }

    private void release(FakeTask task, Instant now) {
        FakeJob job = state.jobs.get(FakeState.key(task.jobId));
        FakePool pool = job == null ? null : state.pools.get(FakeState.key(job.poolId()));
        for (String nodeId : task.nodeIds) {
            FakeNode node = pool == null ? null : pool.nodes.get(nodeId);
            if (node == null) {
                continue;
            }
            node.processes.forEach(NodeProcesses.Handle::kill);
            node.processes.clear();
            node.runningJobId = null;
            node.runningTaskId = null;
            if (node.state.equals("running")) {
                node.state("idle", now);
            }
        }
        task.nodeIds.clear();
    }

    private static boolean pastWallClock(FakeTask task, Instant now) {
        String limit = task.json.path("constraints").path("maxWallClockTime").asText(null);
        String started = task.execution().path("startTime").asText(null);
        if (limit == null || started == null) {
            return false;
        }
        try {
            return now.isAfter(Instant.parse(started).plus(java.time.Duration.parse(limit)));
        } catch (java.time.format.DateTimeParseException | ArithmeticException e) {
            return false;
        }
    }

    private int maxRetries(FakeTask task) {
        JsonNode own = task.json.path("constraints").path("maxTaskRetryCount");
        if (!own.isMissingNode()) {
            return own.asInt();
        }
        FakeJob job = state.job(task.jobId);
        return job.added.path("constraints").path("maxTaskRetryCount").asInt(0);
    }

    private ObjectNode nodeInfo(FakeNode node, FakeTask task) {
        ObjectNode info = Json.object();
        info.put("affinityId", "TVM:" + node.id);
        info.put("nodeUrl", state.baseUrl + "/pools/" + node.poolId + "/nodes/" + node.id);
        info.put("poolId", node.poolId);
        info.put("nodeId", node.id);
        info.put("taskRootDirectory", "workitems/" + task.jobId + "/job-1/" + task.id());
        info.put("taskRootDirectoryUrl", info.get("nodeUrl").asText() + "/files/workitems/" + task.jobId
                + "/job-1/" + task.id());
        return info;
    }
}
