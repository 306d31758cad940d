package dev.gantry.backend.batch.fake;

/**
 * A stand-in evaluator for the fake's own tests: it ignores the formula and answers fixed targets, either always or
 * only while tasks are pending (zero otherwise, so that a pool shrinks). The formula interpreter replaces it.
 */
public record FixedTargets(int dedicatedNodes, int lowPriorityNodes, boolean onlyWhileTasksArePending)
        implements AutoscaleEvaluator {

    public static FixedTargets always(int dedicatedNodes, int lowPriorityNodes) {
        return new FixedTargets(dedicatedNodes, lowPriorityNodes, false);
    }

    public static FixedTargets whileTasksArePending(int dedicatedNodes, int lowPriorityNodes) {
        return new FixedTargets(dedicatedNodes, lowPriorityNodes, true);
    }

    @Override
    public Targets evaluate(String formula, Samples samples) {
        boolean idle = onlyWhileTasksArePending && samples.pendingTasks() == 0;
        return new Targets(idle ? 0 : dedicatedNodes, idle ? 0 : lowPriorityNodes, "taskcompletion");
    }
}
