package dev.gantry.backend.batch.fake;

import dev.gantry.backend.batch.fake.autoscale.Samples;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pool's sampled metrics, as Batch keeps them for its autoscale formulas: the fake takes one sample of every metric
 * at each evaluation interval (Batch takes one every 30 seconds; the fake's interval is short in tests) and keeps the
 * last {@value #KEPT}, which the formula reads through {@code GetSample} and {@code GetSamplePercent}.
 *
 * <p>How the metrics count (Batch's docs, "Create a formula to automatically scale compute nodes"): a task whose
 * dependencies are not met is not active; an active multi-instance task counts its number of instances in
 * {@code $ActiveTasks}; a running task counts once in {@code $RunningTasks} (the docs say nothing more);
 * {@code $PendingTasks} is their sum; {@code $SucceededTasks} and {@code $FailedTasks} are the tasks that ended since
 * the previous sample; {@code $PreemptedNodeCount} the nodes in {@code preempted}; {@code $UsableNodeCount} the nodes
 * that can take a task ({@code idle} or {@code running}); {@code $SampleNodeCount} every node in the pool.
 */
final class PoolMetrics {
    static final int KEPT = 1_000;

    private record Taken(Instant at, Map<String, Double> values) {
    }

    private final Deque<Taken> history = new ArrayDeque<>();
    private Duration period = Samples.BATCH_PERIOD;

    /** Takes one sample of the pool's metrics at {@code now}; {@code period} is how often the fake samples it. */
    void sample(FakeState state, FakePool pool, Instant now, Duration samplingPeriod) {
        Instant previous = history.isEmpty() ? Instant.MIN : history.getLast().at();
        int active = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        for (FakeJob job : state.jobs.values()) {
            if (!job.poolId().equalsIgnoreCase(pool.id)) {
                continue;
            }
            for (FakeTask task : job.tasks.values()) {
                switch (task.state()) {
                    case "active" -> active += Dependencies.satisfied(job, task) ? task.instances() : 0;
                    case "preparing", "running" -> running++;
                    case "completed" -> {
                        String end = task.execution().path("endTime").asText(null);
                        if (end != null && Instant.parse(end).isAfter(previous)) {
                            if ("success".equals(task.execution().path("result").asText())) {
                                succeeded++;
                            } else {
                                failed++;
                            }
                        }
                    }
                    default -> { }
                }
            }
        }
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("$ActiveTasks", (double) active);
        values.put("$RunningTasks", (double) running);
        values.put("$PendingTasks", (double) (active + running));
        values.put("$SucceededTasks", (double) succeeded);
        values.put("$FailedTasks", (double) failed);
        values.put("$PreemptedNodeCount", (double) pool.preempted());
        values.put("$UsableNodeCount", (double) pool.nodes.values().stream()
                .filter(n -> n.state.equals("idle") || n.state.equals("running")).count());
        values.put("$SampleNodeCount", (double) pool.nodes.values().stream()
                .filter(n -> !n.state.equals("leavingpool")).count());
        history.addLast(new Taken(now, values));
        while (history.size() > KEPT) {
            history.removeFirst();
        }
        period = samplingPeriod;
    }

    /** What the pool's formula reads: the history, the sampling period, the pool's node counts and targets. */
    Samples samples(FakePool pool) {
        Samples.Builder samples = Samples.builder().period(period)
                .currentDedicatedNodes(pool.count(true)).currentLowPriorityNodes(pool.count(false))
                .targetDedicatedNodes(pool.targetDedicated).targetLowPriorityNodes(pool.targetLowPriority);
        history.forEach(taken -> taken.values().forEach((variable, value) -> samples.sample(variable, taken.at(),
                value)));
        return samples.build();
    }
}
