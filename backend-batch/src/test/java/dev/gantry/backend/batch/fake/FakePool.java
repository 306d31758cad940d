package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.backend.batch.fake.autoscale.FormulaEvaluator;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A pool: the body it was added with, its state ({@code active} or {@code deleting}), its nodes, its autoscale
 * settings and its resize errors. Identities come from Resource Manager (the data-plane pool add has none).
 */
final class FakePool {
    final String id;
    final ObjectNode added;
    final Instant creationTime;
    String state = "active";
    String allocationState = "steady";
    Instant lastModified;
    boolean enableAutoScale;
    String autoScaleFormula;
    /** The formula, parsed when the pool got it. */
    FormulaEvaluator autoScale;
    final PoolMetrics metrics = new PoolMetrics();
    Duration autoScaleInterval = Duration.ofMinutes(15);
    Instant nextEvaluation = Instant.EPOCH;
    ObjectNode autoScaleRun;
    int targetDedicated;
    int targetLowPriority;
    String deallocationOption = "requeue";
    ArrayNode resizeErrors;
    /** A resize error that also keeps new nodes from coming (AllocationFailed, quota); false for a stale one. */
    boolean allocationBlocked;
    boolean startTaskFails;
    final Set<String> identities = new LinkedHashSet<>();
    final Map<String, FakeNode> nodes = new LinkedHashMap<>();

    FakePool(String id, ObjectNode added, Instant now) {
        this.id = id;
        this.added = added;
        this.creationTime = now;
        this.lastModified = now;
    }

    /**
     * The nodes of the kind in the pool, as Batch counts {@code currentDedicatedNodes} and
     * {@code currentLowPriorityNodes}: preempted ones included.
     */
    int count(boolean dedicated) {
        return (int) nodes.values().stream().filter(n -> n.dedicated == dedicated && !n.state.equals("leavingpool"))
                .count();
    }

    /**
     * The nodes of the kind that hold the target: all but preempted ones, which Batch replaces (a node whose start
     * task failed, or that turned unusable, stays allocated and is not replaced).
     */
    int allocated(boolean dedicated) {
        return (int) nodes.values().stream().filter(n -> n.dedicated == dedicated
                && !n.state.equals("leavingpool") && !n.state.equals("preempted")).count();
    }

    long preempted() {
        return nodes.values().stream().filter(n -> n.state.equals("preempted")).count();
    }

    ObjectNode json(String baseUrl) {
        ObjectNode pool = added.deepCopy();
        pool.put("url", baseUrl + "/pools/" + id);
        pool.put("eTag", Json.etag(lastModified));
        pool.put("lastModified", Json.time(lastModified));
        pool.put("creationTime", Json.time(creationTime));
        pool.put("state", state);
        pool.put("stateTransitionTime", Json.time(lastModified));
        pool.put("allocationState", allocationState);
        pool.put("allocationStateTransitionTime", Json.time(lastModified));
        pool.put("currentDedicatedNodes", count(true));
        pool.put("currentLowPriorityNodes", count(false));
        pool.put("targetDedicatedNodes", targetDedicated);
        pool.put("targetLowPriorityNodes", targetLowPriority);
        pool.put("enableAutoScale", enableAutoScale);
        if (enableAutoScale) {
            pool.put("autoScaleFormula", autoScaleFormula);
            pool.put("autoScaleEvaluationInterval", autoScaleInterval.toString());
        }
        if (autoScaleRun != null) {
            pool.set("autoScaleRun", autoScaleRun.deepCopy());
        }
        if (resizeErrors != null) {
            pool.set("resizeErrors", resizeErrors.deepCopy());
        }
        if (!pool.has("taskSlotsPerNode")) {
            pool.put("taskSlotsPerNode", 1);
        }
        if (!identities.isEmpty()) {
            ObjectNode identity = pool.putObject("identity");
            identity.put("type", "UserAssigned");
            ArrayNode users = identity.putArray("userAssignedIdentities");
            identities.forEach(resourceId -> users.addObject().put("resourceId", resourceId));
        }
        return pool;
    }
}
