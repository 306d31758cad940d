package dev.gantry.backend.batch.internal.render;

import java.time.Duration;

/**
 * The autoscale formula of every pool Gantry makes: pools always autoscale, never hold fixed targets, so that an idle
 * pool shrinks to zero with nobody watching.
 *
 * <p>How Batch counts (batch-automatic-scaling.md, the table of read-only variables): {@code $PendingTasks} is the sum
 * of {@code $ActiveTasks} and {@code $RunningTasks}, and "for a multi-instance task, {@code $ActiveTasks} will include
 * the number of instances set on the task" (tasks whose dependencies are not met are left out). So waiting tasks are
 * already counted in nodes and are not multiplied again; running tasks are, so that a running multi-node task keeps
 * its whole group (the docs do not say how {@code $RunningTasks} counts one; counting it high only keeps nodes that
 * {@code taskcompletion} would keep anyway). Batch Shipyard #343 met a formula that multiplied both.
 *
 * <p>The text uses only what the fake's evaluator interprets: assignments, ternaries, {@code min}/{@code max}/
 * {@code avg}, the arithmetic and comparison operators, {@code $}-variables, {@code GetSample}/
 * {@code GetSamplePercent} and {@code TimeInterval_*}. No comments: the evaluator need not skip them.
 */
public final class AutoscaleFormula {
    /** How often Batch evaluates it: its minimum, so a pool follows its queue as closely as Batch allows. */
    public static final Duration EVALUATION_INTERVAL = Duration.ofMinutes(5);
    /**
     * Below this share of samples in the window, only the last sample is trusted: {@code GetSample} over a window
     * fails the whole evaluation when samples are missing, right after a pool is made (Batch Shipyard #138).
     */
    static final int SAMPLE_PERCENT_GUARD = 70;

    private AutoscaleFormula() {
    }

    /**
     * The formula.
     *
     * @param spot whether the pool's nodes are Spot: its target is {@code $TargetLowPriorityNodes}, and preempted
     *     nodes, which count towards it while they sit preempted, are added so that they do not hold the pool
     *     below what waiting tasks need (Nextflow #5545)
     * @param nodesPerTask the nodes each of the pool's tasks runs on (1, or a multi-node plan's)
     * @param maxNodes the cap, {@code maxNodesPerPool}
     */
    public static String render(boolean spot, int nodesPerTask, int maxNodes) {
        if (nodesPerTask < 1 || maxNodes < 1) {
            throw new IllegalArgumentException("nodesPerTask and maxNodes must be at least 1, got " + nodesPerTask
                    + " and " + maxNodes);
        }
        String window = "TimeInterval_Minute * " + EVALUATION_INTERVAL.toMinutes();
        StringBuilder formula = new StringBuilder()
                .append("$samples = $PendingTasks.GetSamplePercent(").append(window).append(");\n")
                .append("$lastActive = max(0, $ActiveTasks.GetSample(1));\n")
                .append("$lastRunning = max(0, $RunningTasks.GetSample(1));\n")
                .append("$active = $samples < ").append(SAMPLE_PERCENT_GUARD).append(" ? $lastActive : max($lastActive, "
                        + "avg($ActiveTasks.GetSample(").append(window).append(")));\n")
                .append("$running = $lastRunning * ").append(nodesPerTask).append(";\n");
        String preempted = "";
        if (spot) {
            formula.append("$preempted = max(0, $PreemptedNodeCount.GetSample(1));\n");
            preempted = " + $preempted";
        }
        // Zero as soon as the last sample has nothing waiting or running, whatever the window's average says.
        formula.append("$wanted = $lastActive + $lastRunning == 0 ? 0 : min(").append(maxNodes)
                .append(", $active + $running").append(preempted).append(");\n");
        formula.append(spot ? "$TargetLowPriorityNodes = $wanted;\n$TargetDedicatedNodes = 0;\n"
                : "$TargetDedicatedNodes = $wanted;\n$TargetLowPriorityNodes = 0;\n");
        // Scale-in waits for a node's task to end instead of requeueing it (Batch Shipyard #218).
        formula.append("$NodeDeallocationOption = taskcompletion;\n");
        return formula.toString();
    }
}
