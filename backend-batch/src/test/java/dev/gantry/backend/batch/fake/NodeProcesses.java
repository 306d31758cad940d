package dev.gantry.backend.batch.fake;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How a node of the fake starts a process: the one seam between the fake's scheduling and the machine. The local
 * implementation ({@link LocalNodeProcesses}) runs every node's processes on this machine at 127.0.0.1; another one
 * gives each node its own network namespace and address on the test bridge.
 */
public interface NodeProcesses extends AutoCloseable {
    /** A started process (with whatever it started, in its process group). */
    interface Handle {
        /** Completes with the process's exit code when it ends. */
        CompletableFuture<Integer> exitCode();

        /** Kills the process and its whole process group, including what it left running in the background. */
        void kill();
    }

    /**
     * Starts {@code argv} on the node with exactly {@code environment} (nothing inherited from the fake's own), in
     * {@code workingDirectory}, appending its output to {@code stdout} and {@code stderr}.
     */
    Handle start(String nodeId, List<String> argv, Map<String, String> environment, Path workingDirectory,
            Path stdout, Path stderr) throws IOException;

    /** The address the node's processes reach each other at ({@code ipAddress}, {@code AZ_BATCH_HOST_LIST}). */
    default String address(String nodeId) {
        return "127.0.0.1";
    }

    /** Called when a node joins a pool, before anything starts on it. */
    default void nodeAdded(String nodeId) throws IOException {
    }

    /** Called when a node leaves its pool, after its processes were killed. */
    default void nodeRemoved(String nodeId) {
    }

    @Override
    default void close() {
    }
}
