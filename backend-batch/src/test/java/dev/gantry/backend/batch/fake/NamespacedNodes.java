package dev.gantry.backend.batch.fake;

import dev.gantry.backend.batch.fake.nodes.NamespaceNodeProcesses;
import dev.gantry.backend.batch.fake.nodes.NodeNetwork;
import dev.gantry.backend.batch.fake.nodes.NodeProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fake's nodes in the network namespaces {@code scripts/test-batch.sh nodes-up} makes (gantry-b1 to gantry-b4):
 * a node joining a pool takes the namespace fewest live nodes use, its processes run there under the namespace's
 * name as hostname, and its address is the namespace's ({@code ipAddress}, {@code AZ_BATCH_HOST_LIST},
 * {@code AZ_BATCH_MASTER_NODE}; {@code hostname -I} and {@code hostname -i} answer it). With more live nodes than
 * namespaces, nodes share one; the scheduler gives a multi-instance task nodes at distinct addresses only.
 *
 * <p>Made only where every namespace exists and names its node: otherwise it fails, naming the command that makes
 * them, and never falls back to this machine's own network (a fake whose ranks all share one address proves nothing
 * of rank discovery).
 */
final class NamespacedNodes implements NodeProcesses {
    private final List<NodeNetwork> networks;
    private final NamespaceNodeProcesses processes = new NamespaceNodeProcesses();
    private final Map<String, NodeNetwork> byNode = new ConcurrentHashMap<>();

    /** @throws IllegalStateException when a namespace or its hosts file is missing, naming {@code nodes-up} */
    NamespacedNodes(List<NodeNetwork> networks) {
        NodeNetwork.requireNamed(networks);
        this.networks = List.copyOf(networks);
    }

    @Override
    public synchronized void nodeAdded(String nodeId) {
        NodeNetwork least = networks.stream().min(Comparator.comparingLong(network -> byNode.values().stream()
                .filter(network::equals).count())).orElseThrow();
        byNode.put(nodeId, least);
    }

    @Override
    public void nodeRemoved(String nodeId) {
        byNode.remove(nodeId);
    }

    @Override
    public String address(String nodeId) {
        return network(nodeId).address();
    }

    @Override
    public Handle start(String nodeId, List<String> argv, Map<String, String> environment, Path workingDirectory,
            Path stdout, Path stderr) throws IOException {
        return handle(processes.start(network(nodeId), argv, environment, workingDirectory, stdout, stderr));
    }

    @Override
    public Handle startContainerClient(String nodeId, List<String> argv, Map<String, String> environment,
            Path workingDirectory, Path stdout, Path stderr) throws IOException {
        network(nodeId);
        return handle(processes.start("", argv, environment, workingDirectory, stdout, stderr));
    }

    @Override
    public List<String> containerNetwork(String nodeId) {
        NodeNetwork network = network(nodeId);
        return List.of("--network", "ns:/run/netns/" + network.namespace(), "--hostname", network.namespace(),
                "--no-hosts", "--volume", network.hostsFile() + ":/etc/hosts:ro");
    }

    private static Handle handle(NodeProcess process) {
        return new Handle() {
            @Override
            public CompletableFuture<Integer> exitCode() {
                return process.exit();
            }

            @Override
            public void kill() {
                process.killGroup();
            }
        };
    }

    @Override
    public void close() {
        processes.close();
    }

    private NodeNetwork network(String nodeId) {
        NodeNetwork network = byNode.get(nodeId);
        if (network == null) {
            throw new IllegalStateException("the fake's node " + nodeId + " has no namespace (it is not in a pool)");
        }
        return network;
    }
}
