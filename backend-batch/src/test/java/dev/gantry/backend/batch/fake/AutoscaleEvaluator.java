package dev.gantry.backend.batch.fake;

/**
 * Evaluates a pool's autoscale formula: the formula's text and the pool's sample values in, the targets out. The
 * fake calls it at each evaluation interval of an autoscale pool, and for evaluateautoscale. A formula it cannot
 * interpret is refused with an {@link IllegalArgumentException} whose message says what is not understood (the fake
 * answers that as Batch's {@code InvalidAutoScaleFormula}).
 */
public interface AutoscaleEvaluator {
    /** The pool's values at the time of the evaluation ($PendingTasks, $ActiveTasks, ...). */
    record Samples(int activeTasks, int runningTasks, int pendingTasks, int currentDedicatedNodes,
            int currentLowPriorityNodes, int preemptedNodeCount) {
    }

    /** What the formula set: {@code $TargetDedicatedNodes}, {@code $TargetLowPriorityNodes}, {@code $NodeDeallocationOption}. */
    record Targets(int dedicatedNodes, int lowPriorityNodes, String nodeDeallocationOption) {
    }

    Targets evaluate(String formula, Samples samples);
}
