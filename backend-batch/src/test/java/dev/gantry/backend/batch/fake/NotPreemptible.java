package dev.gantry.backend.batch.fake;

/**
 * A preemption asked of a dedicated node. Batch preempts only Spot (low-priority) nodes, when Azure takes their
 * capacity back; a dedicated node is never preempted, so the fake refuses, and its control endpoint answers 409.
 */
public final class NotPreemptible extends IllegalStateException {
    NotPreemptible(String poolId, String nodeId) {
        super("node " + nodeId + " of pool " + poolId + " is a dedicated node, and only Spot (low-priority) nodes are "
                + "preempted: preempt a node of a pool with low-priority nodes ($TargetLowPriorityNodes, or "
                + "targetLowPriorityNodes)");
    }
}
