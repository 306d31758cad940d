package dev.gantry.backend.batch.fake.autoscale;

/**
 * What one evaluation decided: the targets (whole nodes, fractions cut off), the deallocation option, and the
 * {@code results} text Batch returns from evaluate-autoscale and puts in {@code autoScaleRun.results}:
 * {@code $TargetDedicatedNodes=1;$TargetLowPriorityNodes=0;$NodeDeallocationOption=taskcompletion;} and then every
 * variable the formula assigned, sorted by name ({@code $samples=96.6667;$tasks=0;cappedPoolSize=3}).
 */
public record Evaluation(int targetDedicated, int targetLowPriority, String nodeDeallocationOption, String results) {
}
