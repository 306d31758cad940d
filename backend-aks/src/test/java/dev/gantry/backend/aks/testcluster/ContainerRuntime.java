package dev.gantry.backend.aks.testcluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs one container of a pod. {@link HostProcessRuntime} runs the argv as a process of this machine in the node's
 * network namespace; {@link PodmanRuntime} runs the images the environment marks (the kit's busybox test image).
 */
interface ContainerRuntime {
    /** What to run: the container's argv and environment after the kubelet's expansion, and its mounts. */
    record Spec(String image, List<String> argv, Map<String, String> environment, String workingDirectory,
            String hostname, NodeSlot slot, Path logFile, ContainerMounts mounts) {
    }

    /** A started container. */
    interface Running {
        /** Blocks until the container ends; its exit code. */
        int waitFor() throws InterruptedException;

        /** SIGTERM, as the kubelet's graceful stop. */
        void terminate();

        /** SIGKILL. */
        void kill();

        boolean isAlive();
    }

    /** Thrown when the runtime cannot start the container: the runtime's message, the pod ends StartError. */
    final class StartError extends Exception {
        StartError(String message) {
            super(message);
        }
    }

    /** Whether this runtime runs {@code image}. */
    boolean runs(String image);

    Running start(Spec spec) throws StartError, IOException;

    /** The test cluster closes: nothing this runtime started may be left behind. */
    default void close() {
    }
}
