package dev.gantry.backend.batch.fake.nodes;

import dev.gantry.testing.NamespaceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Where a fake Batch node's processes run: a network namespace of this machine and its address on the test bridge,
 * made by {@code scripts/test-batch.sh nodes-up} ({@code scripts/lib/batch-nodes.sh}), or this machine's own network
 * when {@code namespace} is empty (for tests of the fake's logic alone, where every node shares one address).
 */
public record NodeNetwork(String namespace, String address) {
    /** How many node namespaces the script makes. */
    public static final int COUNT = 4;
    /** The command that makes them, named when one is missing. */
    public static final String MAKE_COMMAND = "`scripts/test-batch.sh nodes-up`";

    /** Node {@code k} (1 to {@value #COUNT}): namespace {@code gantry-bK} at {@code 10.200.0.(160+K)}. */
    public static NodeNetwork batch(int k) {
        if (k < 1 || k > COUNT) {
            throw new IllegalArgumentException("Batch fake node " + k + " does not exist; nodes are 1 to " + COUNT
                    + " (gantry-b1 to gantry-b" + COUNT + ", made by " + MAKE_COMMAND + ")");
        }
        return new NodeNetwork("gantry-b" + k, "10.200.0." + (160 + k));
    }

    /** Every node namespace the script makes, in node order. */
    public static List<NodeNetwork> all() {
        return IntStream.rangeClosed(1, COUNT).mapToObj(NodeNetwork::batch).toList();
    }

    /** This machine's own network, on loopback. */
    public static NodeNetwork host() {
        return new NodeNetwork("", "127.0.0.1");
    }

    public boolean isolated() {
        return !namespace.isEmpty();
    }

    /**
     * Fails unless every isolated node's namespace exists, as the Kubernetes test cluster does: the fake fails, and
     * never skips, where the machine cannot give its nodes their addresses.
     *
     * @throws IllegalStateException naming the first missing namespace and {@link #MAKE_COMMAND}
     */
    public static void requireAll(List<NodeNetwork> nodes) {
        nodes.stream().filter(NodeNetwork::isolated).forEach(n -> NamespaceProcess.requireNamespace(n.namespace(),
                MAKE_COMMAND));
    }

    /**
     * Fails unless every isolated node's namespace exists and its hosts file names the node at its address, so that
     * a process started under the node's hostname finds its address by {@code hostname -i}.
     *
     * @throws IllegalStateException naming what is missing and {@link #MAKE_COMMAND}
     */
    public static void requireNamed(List<NodeNetwork> nodes) {
        requireAll(nodes);
        for (NodeNetwork node : nodes) {
            if (node.isolated() && !node.hostsFileNamesIt()) {
                throw new IllegalStateException("the hosts file of the network namespace " + node.namespace() + " ("
                        + hostsFile(node.namespace()) + ") does not name " + node.namespace() + " at "
                        + node.address() + "; make it with " + MAKE_COMMAND + " (as root)");
            }
        }
    }

    private boolean hostsFileNamesIt() {
        try {
            return Files.readAllLines(hostsFile(namespace)).stream().map(line -> line.strip().split("\\s+"))
                    .anyMatch(fields -> fields[0].equals(address)
                            && List.of(fields).subList(1, fields.length).contains(namespace));
        } catch (IOException missing) {
            return false;
        }
    }

    /**
     * The namespace's hosts file, which names the node at its address: what {@code ip netns exec} bind-mounts over
     * {@code /etc/hosts} for the namespace's processes, and what a container on the node mounts as its own.
     */
    public Path hostsFile() {
        return hostsFile(namespace);
    }

    private static Path hostsFile(String namespace) {
        return Path.of("/etc/netns", namespace, "hosts");
    }
}
