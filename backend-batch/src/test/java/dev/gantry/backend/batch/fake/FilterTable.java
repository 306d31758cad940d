package dev.gantry.backend.batch.fake;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The properties each list lets {@code $filter} use, and with which operators, after Batch's published table
 * ("OData filters in Batch", learn.microsoft.com/rest/api/batchservice/odata-filters-in-batch). Anything else in a
 * filter is {@code 400 InvalidQueryParameterValue}.
 *
 * <p>The nodes and supported-images tables are as published. Of the list-tasks table, the row
 * {@code executionInfo/exitCode | eq, ge, gt, le, lt | Int} is quoted in "Create queries to list Batch resources
 * efficiently" (no {@code ne}: {@code (executionInfo/exitCode lt 0) or (executionInfo/exitCode gt 0)} is its
 * non-zero filter); the rest of that table could not be read whole. Every time table the page shows (certificates,
 * nodes, jobs of a schedule) allows {@code state} with eq/ne and {@code stateTransitionTime} with all six
 * comparisons, and the tasks table here does the same, with {@code creationTime} and the {@code executionInfo}
 * times and result. Recheck the list-tasks section of the live page before relying on more than
 * {@code state} and {@code stateTransitionTime}.
 */
final class FilterTable {
    enum Kind { STRING, INT, DATETIME }

    record Property(Kind kind, Set<String> operators) {
    }

    static final Set<String> EQUALITY = Set.of("eq", "ne");
    static final Set<String> ORDER = Set.of("eq", "ne", "ge", "gt", "le", "lt");
    static final Set<String> ORDER_WITHOUT_NE = Set.of("eq", "ge", "gt", "le", "lt");

    static final Map<String, Property> TASKS = table(
            "state", new Property(Kind.STRING, EQUALITY),
            "stateTransitionTime", new Property(Kind.DATETIME, ORDER),
            "creationTime", new Property(Kind.DATETIME, ORDER),
            "executionInfo/startTime", new Property(Kind.DATETIME, ORDER),
            "executionInfo/endTime", new Property(Kind.DATETIME, ORDER),
            "executionInfo/exitCode", new Property(Kind.INT, ORDER_WITHOUT_NE),
            "executionInfo/result", new Property(Kind.STRING, EQUALITY));

    static final Map<String, Property> NODES = table(
            "state", new Property(Kind.STRING, EQUALITY),
            "stateTransitionTime", new Property(Kind.DATETIME, ORDER),
            "lastBootTime", new Property(Kind.DATETIME, ORDER),
            "allocationTime", new Property(Kind.DATETIME, ORDER),
            "startTaskInfo/state", new Property(Kind.STRING, Set.of("eq")),
            "startTaskInfo/result", new Property(Kind.STRING, EQUALITY),
            "startTaskInfo/exitCode", new Property(Kind.INT, ORDER),
            "startTaskInfo/startTime", new Property(Kind.DATETIME, ORDER),
            "startTaskInfo/endTime", new Property(Kind.DATETIME, ORDER));

    static final Map<String, Property> POOLS = table(
            "state", new Property(Kind.STRING, EQUALITY),
            "allocationState", new Property(Kind.STRING, EQUALITY),
            "stateTransitionTime", new Property(Kind.DATETIME, ORDER),
            "creationTime", new Property(Kind.DATETIME, ORDER),
            "id", new Property(Kind.STRING, Set.of("eq", "startswith")));

    static final Map<String, Property> SUPPORTED_IMAGES = table(
            "osType", new Property(Kind.STRING, EQUALITY),
            "verificationType", new Property(Kind.STRING, EQUALITY),
            "nodeAgentSKUId", new Property(Kind.STRING, EQUALITY));

    private FilterTable() {
    }

    private static Map<String, Property> table(Object... entries) {
        Map<String, Property> table = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i += 2) {
            table.put((String) entries[i], (Property) entries[i + 1]);
        }
        return Map.copyOf(table);
    }
}
