package dev.gantry.backend.aks.testcluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@link KubeTestCluster} as a process, for end-to-end runs of the real CLI against it:
 * <pre>
 *   java -cp TEST_CLASSPATH dev.gantry.backend.aks.testcluster.KubeTestCluster \
 *       --kubeconfig FILE [--admin-kubeconfig FILE] [--namespace NS] [--port PORT] [--work DIR] [--host-network]
 *       [--node-type SIZE,cpu=N,memory=Q[,gpus=N][,spot]]...
 * </pre>
 * Without {@code --node-type} its two nodes are the kit's ({@link NodeTemplate#kit}); one {@code --node-type} makes
 * both nodes of that type, two make one node of each (see {@link NodeTypeOption}).
 * It writes the kubeconfig(s), prints {@code ready SERVER_URL} once the API server listens, and runs until it is
 * stopped (SIGTERM or SIGINT), when it stops every pod's process.
 */
final class KubeTestClusterMain {
    /** The node namespaces scripts/test-kube.sh makes. */
    private static final int NODES = 2;

    private KubeTestClusterMain() {
    }

    static void run(String[] args) throws Exception {
        KubeTestCluster.Builder builder = KubeTestCluster.builder();
        Path kubeconfig = null;
        Path adminKubeconfig = null;
        List<String> nodeTypes = new ArrayList<>();
        boolean hostNetwork = false;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String option = rest.remove(0);
            switch (option) {
                case "--kubeconfig" -> kubeconfig = Path.of(value(option, rest));
                case "--admin-kubeconfig" -> adminKubeconfig = Path.of(value(option, rest));
                case "--namespace" -> builder.namespace(value(option, rest));
                case "--port" -> builder.port(port(value(option, rest)));
                case "--work" -> builder.workDirectory(Path.of(value(option, rest)));
                case "--host-network" -> hostNetwork = true;
                case "--node-type" -> nodeTypes.add(value(option, rest));
                default -> throw new IllegalArgumentException("unknown option '" + option + "'; allowed: --kubeconfig"
                        + " FILE, --admin-kubeconfig FILE, --namespace NS, --port PORT, --work DIR, --host-network, "
                        + NodeTypeOption.SYNTAX);
            }
        }
        if (hostNetwork) {
            builder.hostNetwork();
        }
        if (!nodeTypes.isEmpty()) {
            builder.nodes(nodes(nodeTypes, hostNetwork));
        }
        if (kubeconfig == null) {
            throw new IllegalArgumentException("--kubeconfig FILE is required: where to write the kubeconfig of the"
                    + " Role-bound user " + KubeTestCluster.USER);
        }
        KubeTestCluster cluster = builder.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            stopped.countDown();
        }, "test-kube-shutdown"));
        cluster.writeKubeconfig(kubeconfig);
        if (adminKubeconfig != null) {
            Files.writeString(adminKubeconfig, cluster.adminKubeconfig());
        }
        System.out.println("ready " + cluster.serverUrl() + " namespace " + cluster.namespace() + " nodes "
                + String.join(",", cluster.nodeNames()));
        System.out.flush();
        stopped.await();
    }

    /** The two nodes: one of each type, or both of the one type given. */
    private static List<NodeTemplate> nodes(List<String> nodeTypes, boolean hostNetwork) {
        if (nodeTypes.size() > NODES) {
            throw new IllegalArgumentException("--node-type is given " + nodeTypes.size() + " times; the test cluster"
                    + " has " + NODES + " nodes: give one type for both, or one per node");
        }
        List<NodeTemplate> nodes = new ArrayList<>();
        for (int k = 1; k <= NODES; k++) {
            NodeSlot slot = hostNetwork ? NodeSlot.host(k) : NodeSlot.kube(k);
            nodes.add(NodeTypeOption.parse(nodeTypes.get(Math.min(k, nodeTypes.size()) - 1), slot));
        }
        return nodes;
    }

    private static String value(String option, List<String> rest) {
        if (rest.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return rest.remove(0);
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port '" + text + "' is not a port: 0 (any free port) to 65535");
        }
    }
}
