package dev.gantry.backend.batch.fake.autoscale;

import java.util.List;
import java.util.Set;

/**
 * The service-defined names of the subset, from Batch's docs ("Create a formula to automatically scale compute nodes
 * in a Batch pool"), and the documented names the fake refuses because they are outside its subset.
 */
final class ServiceVariables {
    /** Read-only metrics, each a sample series read through {@code GetSample} and {@code GetSamplePercent}. */
    static final List<String> SAMPLED = List.of("$ActiveTasks", "$RunningTasks", "$PendingTasks", "$SucceededTasks",
            "$FailedTasks", "$CPUPercent", "$WallClockSeconds", "$MemoryBytes", "$DiskBytes", "$DiskReadBytes",
            "$DiskWriteBytes", "$DiskReadOps", "$DiskWriteOps", "$NetworkInBytes", "$NetworkOutBytes",
            "$SampleNodeCount", "$PreemptedNodeCount", "$UsableNodeCount");
    /** Read-only counts the docs' formulas use as plain numbers ({@code $CurrentDedicatedNodes * 1.1}). */
    static final String CURRENT_DEDICATED = "$CurrentDedicatedNodes";
    static final String CURRENT_LOW_PRIORITY = "$CurrentLowPriorityNodes";
    /** Read-write targets, and the aliases the docs allow (the full name wins when both are set). */
    static final String TARGET_DEDICATED = "$TargetDedicatedNodes";
    static final String TARGET_LOW_PRIORITY = "$TargetLowPriorityNodes";
    static final String TARGET_DEDICATED_ALIAS = "$TargetDedicated";
    static final String TARGET_LOW_PRIORITY_ALIAS = "$TargetLowPriority";
    static final String DEALLOCATION = "$NodeDeallocationOption";
    static final List<String> DEALLOCATION_OPTIONS = List.of("requeue", "terminate", "taskcompletion",
            "retaineddata");
    static final String DEFAULT_DEALLOCATION = "requeue";

    static final List<String> FUNCTIONS = List.of("min", "max", "avg");
    static final Set<String> FUNCTIONS_OUTSIDE_SUBSET = Set.of("len", "lg", "ln", "log", "norm", "percentile", "rand",
            "range", "std", "stop", "sum", "time", "val");
    static final String GET_SAMPLE = "GetSample";
    static final String GET_SAMPLE_PERCENT = "GetSamplePercent";
    static final Set<String> METHODS_OUTSIDE_SUBSET = Set.of("Count", "GetSamplePeriod", "HistoryBeginTime");
    static final String INTERVAL_PREFIX = "TimeInterval_";
    static final List<String> INTERVALS = List.of("TimeInterval_Zero", "TimeInterval_Second", "TimeInterval_Minute",
            "TimeInterval_Hour", "TimeInterval_Day", "TimeInterval_Week");

    private ServiceVariables() {
    }

    static boolean isSampled(String name) {
        return SAMPLED.contains(name);
    }

    static boolean isScalar(String name) {
        return List.of(CURRENT_DEDICATED, CURRENT_LOW_PRIORITY, TARGET_DEDICATED, TARGET_LOW_PRIORITY,
                TARGET_DEDICATED_ALIAS, TARGET_LOW_PRIORITY_ALIAS).contains(name);
    }

    static boolean isTarget(String name) {
        return List.of(TARGET_DEDICATED, TARGET_LOW_PRIORITY, TARGET_DEDICATED_ALIAS, TARGET_LOW_PRIORITY_ALIAS)
                .contains(name);
    }

    static boolean isReadOnly(String name) {
        return isSampled(name) || name.equals(CURRENT_DEDICATED) || name.equals(CURRENT_LOW_PRIORITY);
    }

    /** A name a user variable may not take. */
    static boolean isReserved(String name) {
        return name.startsWith(INTERVAL_PREFIX) || DEALLOCATION_OPTIONS.contains(name) || FUNCTIONS.contains(name)
                || FUNCTIONS_OUTSIDE_SUBSET.contains(name);
    }
}
