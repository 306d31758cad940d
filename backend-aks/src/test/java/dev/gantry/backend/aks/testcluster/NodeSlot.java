package dev.gantry.backend.aks.testcluster;

/**
 * Where a node's processes run: a network namespace of this machine (made by {@code scripts/test-kube.sh up}) and
 * its address, or the machine's own network when {@code namespace} is empty (for tests of the controllers alone).
 */
public record NodeSlot(String namespace, String address) {
    /** The two namespaces {@code scripts/test-kube.sh} makes: {@code gantry-k1} and {@code gantry-k2}. */
    public static NodeSlot kube(int k) {
        return new NodeSlot("gantry-k" + k, "10.200.0." + (150 + k));
    }

    /** No namespace: processes run in the test's own network. */
    public static NodeSlot host(int k) {
        return new NodeSlot("", "127.0.0." + (10 + k));
    }

    boolean isolated() {
        return !namespace.isEmpty();
    }
}
