package dev.gantry.backend.batch.fake.nodes;

import dev.gantry.testing.NamespaceProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts the fake's task processes on its nodes: each in its node's network namespace (so a multi-instance task's
 * ranks meet at the addresses of {@code AZ_BATCH_HOST_LIST}), with exactly the environment Batch gives a task, its
 * stdout and stderr appended to the task's files, and as a process group of its own, killed whole on terminate,
 * preemption and shutdown. {@link #close()} kills every group whose first process still runs; processes a task left
 * behind after its first process ended are the caller's to end ({@link NodeProcess#killGroup()} still reaches them).
 */
public final class NamespaceNodeProcesses implements AutoCloseable {
    private final Set<NodeProcess> running = ConcurrentHashMap.newKeySet();

    /**
     * Starts {@code argv} on the node whose namespace is {@code nodeNamespace} ("" for this machine's own network).
     *
     * @param environment the task's whole environment (PATH included: nothing is inherited)
     * @param workDir the task's working directory, made when missing
     * @param stdoutFile appended to, as Batch's {@code stdout.txt}
     * @param stderrFile appended to, as Batch's {@code stderr.txt}
     * @throws IllegalStateException when the namespace does not exist, naming the command that makes it
     */
    public NodeProcess start(String nodeNamespace, List<String> argv, Map<String, String> environment, Path workDir,
            Path stdoutFile, Path stderrFile) throws IOException {
        return start(nodeNamespace, "", argv, environment, workDir, stdoutFile, stderrFile);
    }

    /**
     * Starts {@code argv} on the node, under the node's own hostname: its namespace's name, which the namespace's
     * hosts file ({@code /etc/netns/NS/hosts}, made by {@code nodes-up}) maps to the node's address, so that
     * {@code hostname -i} answers the address as {@code hostname -I} does.
     */
    public NodeProcess start(NodeNetwork node, List<String> argv, Map<String, String> environment, Path workDir,
            Path stdoutFile, Path stderrFile) throws IOException {
        return start(node.namespace(), node.namespace(), argv, environment, workDir, stdoutFile, stderrFile);
    }

    private NodeProcess start(String nodeNamespace, String hostname, List<String> argv,
            Map<String, String> environment, Path workDir, Path stdoutFile, Path stderrFile) throws IOException {
        if (!nodeNamespace.isEmpty()) {
            NamespaceProcess.requireNamespace(nodeNamespace, NodeNetwork.MAKE_COMMAND);
        }
        NodeProcess started = new NodeProcess(NamespaceProcess.start(new NamespaceProcess.Spec(nodeNamespace,
                hostname, argv, environment, workDir, ProcessBuilder.Redirect.appendTo(stdoutFile.toFile()),
                ProcessBuilder.Redirect.appendTo(stderrFile.toFile()))));
        running.add(started);
        started.exit().whenComplete((code, error) -> running.remove(started));
        return started;
    }

    /** The fake shuts down: nothing a node started is left behind. */
    @Override
    public void close() {
        List.copyOf(running).forEach(NodeProcess::killGroup);
    }
}
