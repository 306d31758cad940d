package dev.gantry.backend.batch.internal.logs;

/** Where a task's output file is read: through the task's file API, or a node's (a rank of a multi-node task). */
sealed interface FileLocation {
    String path();

    /** {@code GET /jobs/JOB/tasks/TASK/files/PATH}: relative to the task's directory on its (primary) node. */
    record TaskFile(String jobId, String taskId, String path) implements FileLocation {
    }

    /** {@code GET /pools/POOL/nodes/NODE/files/PATH}: relative to the node's root. */
    record NodeFile(String poolId, String nodeId, String path) implements FileLocation {
    }
}
