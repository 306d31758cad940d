package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.backend.batch.fake.autoscale.Evaluation;
import dev.gantry.backend.batch.fake.autoscale.FormulaEvaluator;
import dev.gantry.backend.batch.fake.autoscale.FormulaException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pools' nodes: autoscale evaluations at each pool's interval (its formula through the {@link FormulaEvaluator}, over
 * the metrics sampled then: {@link PoolMetrics}), nodes added
 * up to the targets (none while an allocation-blocking resize error is set) and idle ones removed down to them once
 * they have been idle for the options' {@code nodeRetention} (a node and its task's files outlive the task, as in
 * Batch, where scale-in waits for a sample and a later evaluation),
 * start tasks run on new nodes ({@code waitingforstarttask}, then {@code idle} or {@code starttaskfailed}),
 * preemption and unusable nodes, node removal and pool deletion. Every method runs under the state's lock.
 */
final class NodeLifecycle {
    private final FakeState state;
    private final TaskLifecycle tasks;

    NodeLifecycle(FakeState state, TaskLifecycle tasks) {
        this.state = state;
        this.tasks = tasks;
    }

    void tick(Instant now, Map<String, Instant> deletions) {
        for (FakePool pool : List.copyOf(state.pools.values())) {
            if (pool.state.equals("deleting")) {
                Instant gone = deletions.get(pool.id);
                if (gone != null && !now.isBefore(gone)) {
                    state.pools.remove(FakeState.key(pool.id));
                    state.poolIds.remove(pool.id);
                    deletions.remove(pool.id);
                    state.poolDeleted.accept(pool.id);
                }
                continue;
            }
            if (pool.enableAutoScale && !now.isBefore(pool.nextEvaluation)) {
                Duration interval = state.options.autoscaleInterval != null ? state.options.autoscaleInterval
                        : pool.autoScaleInterval;
                pool.metrics.sample(state, pool, now, interval);
                pool.autoScaleRun = evaluate(pool, pool.autoScale, true, now);
                pool.nextEvaluation = now.plus(interval);
            }
            resize(pool, now);
        }
    }

    /**
     * Evaluates a formula against the pool's sampled metrics and answers the run as Batch reports it
     * ({@code autoScaleRun}: {@code timestamp}, {@code results}, and {@code error} when the evaluation failed);
     * {@code apply} sets the pool's targets from a run that succeeded (a failed one changes nothing).
     */
    ObjectNode evaluate(FakePool pool, FormulaEvaluator formula, boolean apply, Instant now) {
        ObjectNode run = Json.object();
        run.put("timestamp", Json.time(now));
        try {
            Evaluation evaluation = formula.evaluate(pool.metrics.samples(pool), now);
            if (apply) {
                pool.targetDedicated = evaluation.targetDedicated();
                pool.targetLowPriority = evaluation.targetLowPriority();
                pool.deallocationOption = evaluation.nodeDeallocationOption();
            }
            run.put("results", evaluation.results());
        } catch (FormulaException e) {
            run.put("results", e.results());
            ObjectNode error = run.putObject("error");
            error.put("code", e.code());
            error.put("message", e.getMessage());
            e.values().forEach((name, value) -> error.withArray("values").addObject().put("name", name)
                    .put("value", value));
        }
        return run;
    }

    private void resize(FakePool pool, Instant now) {
        boolean changing = false;
        for (boolean dedicated : new boolean[] {true, false}) {
            int target = dedicated ? pool.targetDedicated : pool.targetLowPriority;
            int current = pool.allocated(dedicated);
            if (current < target) {
                changing = true;
                if (!pool.allocationBlocked) {
                    addNode(pool, dedicated, now);
                }
            } else if (current > target) {
                changing = true;
                Instant idleSince = now.minus(state.options.nodeRetention);
                pool.nodes.values().stream().filter(n -> n.dedicated == dedicated && n.state.equals("idle")
                                && !n.stateTransitionTime.isAfter(idleSince))
                        .reduce((first, second) -> second).ifPresent(node -> remove(pool, node, now));
            }
        }
        pool.allocationState = changing ? "resizing" : "steady";
    }

    private void addNode(FakePool pool, boolean dedicated, Instant now) {
        String id = state.nextNodeId(dedicated);
        FakeNode node = new FakeNode(id, pool.id, state.root.resolve("nodes").resolve(id), dedicated, now);
        try {
            TaskLaunch.prepareNode(node);
            state.options.processes.nodeAdded(id);
        } catch (IOException e) {
            node.state("unusable", now);
        }
        node.address = state.options.processes.address(id);
        pool.nodes.put(id, node);
        if (node.state.equals("starting")) {
            startTask(pool, node, now);
        }
    }

    private void startTask(FakePool pool, FakeNode node, Instant now) {
        JsonNode startTask = pool.added.get("startTask");
        if (startTask == null) {
            node.state("idle", now);
            return;
        }
        boolean wait = startTask.path("waitForSuccess").asBoolean(true);
        node.state(wait ? "waitingforstarttask" : "idle", now);
        node.startTaskInfo = Json.object();
        node.startTaskInfo.put("state", "running");
        node.startTaskInfo.put("startTime", Json.time(now));
        node.startTaskInfo.put("retryCount", 0);
        if (pool.startTaskFails) {
            startTaskEnded(node, 1, wait, now);
            return;
        }
        try {
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("PATH", TaskLaunch.PATH);
            startTask.path("environmentSettings").forEach(s -> environment.put(s.get("name").asText(),
                    s.path("value").asText("")));
            environment.put("AZ_BATCH_POOL_ID", pool.id);
            environment.put("AZ_BATCH_NODE_ID", node.id);
            environment.put("AZ_BATCH_NODE_ROOT_DIR", node.root.toString());
            environment.put("AZ_BATCH_NODE_SHARED_DIR", node.root.resolve("shared").toString());
            environment.put("AZ_BATCH_NODE_STARTUP_DIR", node.root.resolve("startup").toString());
            environment.put("AZ_BATCH_TASK_WORKING_DIR", node.root.resolve("startup/wd").toString());
            NodeProcesses.Handle handle = state.options.processes.start(node.id,
                    List.of("/bin/sh", "-c", startTask.get("commandLine").asText()), environment,
                    node.root.resolve("startup/wd"), node.root.resolve("startup/stdout.txt"),
                    node.root.resolve("startup/stderr.txt"));
            node.startTask = handle;
            handle.exitCode().whenComplete((code, error) -> {
                synchronized (state) {
                    node.startTask = null;
                    startTaskEnded(node, code == null ? -1 : code, wait, state.now());
                }
            });
        } catch (IOException e) {
            startTaskEnded(node, 127, wait, now);
        }
    }

    private static void startTaskEnded(FakeNode node, int exit, boolean wait, Instant now) {
        if (!node.usable()) {
            return;
        }
        node.startTaskInfo.put("state", "completed");
        node.startTaskInfo.put("endTime", Json.time(now));
        node.startTaskInfo.put("exitCode", exit);
        node.startTaskInfo.put("result", exit == 0 ? "success" : "failure");
        if (exit != 0) {
            node.startTaskInfo.set("failureInfo", FailureInfo.of("FailureExitCode",
                    "The start task exited with an exit code representing a failure"));
        }
        if (exit != 0 && wait) {
            node.state("starttaskfailed", now);
        } else if (!node.state.equals("running")) {
            node.state("idle", now);
        }
    }

    /** Takes a node out of service (preempted or unusable): its processes die and its task goes back to active. */
    void takeAway(FakePool pool, FakeNode node, String newState, Instant now) {
        FakeTask task = runningTask(node);
        node.killAll();
        node.state(newState, now);
        if (task != null) {
            tasks.requeue(task, now);
        }
        node.runningJobId = null;
        node.runningTaskId = null;
    }

    void remove(FakePool pool, FakeNode node, Instant now) {
        takeAway(pool, node, "leavingpool", now);
        pool.nodes.remove(node.id);
        state.options.processes.nodeRemoved(node.id);
    }

    void deletePool(FakePool pool, Instant now) {
        for (FakeNode node : new ArrayList<>(pool.nodes.values())) {
            remove(pool, node, now);
        }
        pool.state = "deleting";
        pool.lastModified = now;
    }

    private FakeTask runningTask(FakeNode node) {
        if (node.runningTaskId == null) {
            return null;
        }
        FakeJob job = state.jobs.get(FakeState.key(node.runningJobId));
        return job == null ? null : job.task(node.runningTaskId);
    }
}
