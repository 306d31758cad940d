package dev.gantry.backend.batch.fake;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How a node of the fake starts a process: the one seam between the fake's scheduling and the machine. The fake's
 * own ({@link NamespacedNodes}) gives each node a network namespace and address of its own on the test bridge.
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

    /**
     * Starts a container's client (Podman) for the node on this machine itself, with the node's network given to the
     * container by {@link #containerNetwork}: Podman run inside {@code ip netns exec} finds no cgroups (it remounts
     * {@code /sys}), so runc cannot create the container there.
     */
    Handle startContainerClient(String nodeId, List<String> argv, Map<String, String> environment,
            Path workingDirectory, Path stdout, Path stderr) throws IOException;

    /** Podman's options that give a container the node's network, hostname and hosts file. */
    List<String> containerNetwork(String nodeId);

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
