package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterNodesTest {
    @TempDir
    Path work;

    @Test
    void theKitsTwoNodesCarryAksLabelsTaintsAndGpus() {
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(work).hostNetwork().start();
                KubernetesClient gantry = new KubernetesClientBuilder().withConfig(cluster.config()).build()) {
            List<Node> nodes = gantry.nodes().list().getItems();
            assertEquals(2, nodes.size());
            assertEquals(cluster.nodeNames(), nodes.stream().map(n -> n.getMetadata().getName()).sorted().toList());
            Node first = nodes.get(0);
            assertTrue(first.getMetadata().getName().matches("aks-tckspot-[0-9]{8}-vmss00000[01]"),
                    first.getMetadata().getName());
            var labels = first.getMetadata().getLabels();
            assertEquals("tck-small", labels.get("node.kubernetes.io/instance-type"));
            assertEquals("tckspot", labels.get("kubernetes.azure.com/agentpool"));
            assertEquals("spot", labels.get("kubernetes.azure.com/scalesetpriority"));
            assertEquals(first.getMetadata().getName(), labels.get("kubernetes.io/hostname"));
            assertEquals("kubernetes.azure.com/scalesetpriority", first.getSpec().getTaints().get(0).getKey());
            assertEquals("NoSchedule", first.getSpec().getTaints().get(0).getEffect());
            assertEquals(new Quantity("1"), first.getStatus().getAllocatable().get("nvidia.com/gpu"));
            assertEquals("True", first.getStatus().getConditions().get(0).getStatus());
        }
    }

    @Test
    void aRegularPoolsNodesHaveNoSpotLabelAndTheirOwnTaints() {
        NodeTemplate gpu = new NodeTemplate(NodeSlot.host(1), "gpua100", "Standard_NC24ads_A100_v4", false,
                java.util.Map.of("cpu", "24", "memory", "220Gi", "nvidia.com/gpu", "1"),
                List.of(NodeTemplate.taint("sku", "gpu", "NoSchedule")));
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(work).nodes(List.of(gpu)).start()) {
            Node node = cluster.store().get(Paths.node(cluster.nodeNames().get(0)), Node.class).orElseThrow();
            assertFalse(node.getMetadata().getLabels().containsKey("kubernetes.azure.com/scalesetpriority"));
            assertEquals("Standard_NC24ads_A100_v4", node.getMetadata().getLabels().get(NodeTemplate.INSTANCE_TYPE));
            assertEquals(List.of("sku"), node.getSpec().getTaints().stream().map(t -> t.getKey()).toList());
        }
    }

    @Test
    void anEvictedNodeIsDeletedAndItsReplacementJoinsUnderTheNextInstanceName() throws Exception {
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(work).hostNetwork()
                .replacementDelay(Duration.ofMillis(300)).start();
                KubernetesClient admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build()) {
            String evicted = cluster.nodeNames().get(0);
            var replacement = cluster.evictNode(evicted);
            assertNull(admin.nodes().withName(evicted).get());
            String joined = replacement.get(10, TimeUnit.SECONDS);
            assertTrue(joined.endsWith("vmss000002"), joined);
            assertEquals(2, admin.nodes().list().getItems().size());
            assertFalse(cluster.nodeNames().contains(evicted));
        }
    }
}
