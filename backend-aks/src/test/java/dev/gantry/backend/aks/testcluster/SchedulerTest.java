package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchedulerTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final Node spot0 = node(NodeTemplate.kit(NodeSlot.host(1)), 0);
    private final Node spot1 = node(NodeTemplate.kit(NodeSlot.host(2)), 1);
    private final List<Node> nodes = List.of(spot0, spot1);

    @Test
    void aPodThatToleratesSpotAndMatchesTheSizeGoesToTheFirstNode() {
        Pod pod = spotPod("a").build();
        assertEquals(Optional.of(name(spot0)), Scheduler.place(pod, nodes, List.of()).node());
    }

    @Test
    void withoutTheSpotTolerationNoNodeTakesItInKubeSchedulersWords() {
        Pod pod = pod("a").build();
        assertEquals("0/2 nodes are available: 2 node(s) had untolerated taint {kubernetes.azure.com/scalesetpriority:"
                + " spot}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
                Scheduler.place(pod, nodes, List.of()).message());
    }

    @Test
    void anOnDemandPlanNeverLandsOnSpotNodes() {
        Pod pod = spotPod("a").editSpec().withNewAffinity().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey(NodeTemplate.SCALE_SET_PRIORITY).withOperator("NotIn")
                .withValues("spot").endMatchExpression().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
        assertEquals("0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption:"
                + " 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
                Scheduler.place(pod, nodes, List.of()).message());
    }

    @Test
    void aSizeNoNodeHasIsNodeSelectorMismatch() {
        Pod pod = spotPod("a").editSpec().addToNodeSelector(NodeTemplate.INSTANCE_TYPE, "Standard_ND96asr_v4")
                .endSpec().build();
        assertEquals(Optional.empty(), Scheduler.place(pod, nodes, List.of()).node());
    }

    @Test
    void gpusAreCountedAgainstAllocatable() {
        Pod first = bound(spotPod("a").editSpec().editFirstContainer().withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec().build(),
                spot0);
        Pod second = bound(spotPod("b").editSpec().editFirstContainer().withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec().build(),
                spot1);
        Pod third = spotPod("c").editSpec().editFirstContainer().withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec().build();
        assertEquals("0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available:"
                + " 2 No preemption victims found for incoming pod.",
                Scheduler.place(third, nodes, List.of(first, second)).message());
    }

    @Test
    void antiAffinityOnHostnamePutsOneRankPerNode() {
        Pod rank0 = bound(ranked("r0"), spot0);
        assertEquals(Optional.of(name(spot1)), Scheduler.place(ranked("r1"), nodes, List.of(rank0)).node());
        Pod rank1 = bound(ranked("r1"), spot1);
        assertEquals("0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes"
                + " are available: 2 No preemption victims found for incoming pod.",
                Scheduler.place(ranked("r2"), nodes, List.of(rank0, rank1)).message());
    }

    @Test
    void tolerationsMatchAsTheApiDefinesThem() {
        var taint = NodeTemplate.taint("sku", "gpu", "NoSchedule");
        assertEquals(true, Scheduler.tolerates(new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("sku")
                .withOperator("Equal").withValue("gpu").withEffect("NoSchedule").build(), taint));
        assertEquals(false, Scheduler.tolerates(new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("sku")
                .withValue("cpu").build(), taint));
        assertEquals(true, Scheduler.tolerates(new io.fabric8.kubernetes.api.model.TolerationBuilder()
                .withOperator("Exists").build(), taint));
    }

    private Pod ranked(String name) {
        return spotPod(name).editMetadata().addToLabels("gantry.dev/job", "train").endMetadata().editSpec()
                .withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("gantry.dev/job", "train").endLabelSelector()
                .withTopologyKey(NodeTemplate.HOSTNAME).endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().endAffinity().endSpec().build();
    }

    private static PodBuilder pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ml").withUid("uid-" + name)
                .endMetadata().withNewSpec().addToNodeSelector(NodeTemplate.INSTANCE_TYPE, "tck-small")
                .addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus();
    }

    private static PodBuilder spotPod(String name) {
        return pod(name).editSpec().addNewToleration().withKey(NodeTemplate.SCALE_SET_PRIORITY).withOperator("Equal")
                .withValue("spot").withEffect("NoSchedule").endToleration().endSpec();
    }

    private static Pod bound(Pod pod, Node node) {
        pod.getSpec().setNodeName(name(node));
        pod.getStatus().setPhase("Running");
        return pod;
    }

    private static String name(Node node) {
        return node.getMetadata().getName();
    }

    private static Node node(NodeTemplate template, int instance) {
        return template.node(instance, NOW);
    }

}
