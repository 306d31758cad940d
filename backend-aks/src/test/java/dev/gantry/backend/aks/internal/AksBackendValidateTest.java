package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.VersionInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AksBackendValidateTest {
    @TempDir
    Path home;
    @TempDir
    Path state;
    private MockCluster cluster;

    @BeforeEach
    void start() throws IOException {
        cluster = new MockCluster(home);
        version("32");
        cluster.controller.namespaces().resource(new NamespaceBuilder().withNewMetadata()
                .withName(MockCluster.NAMESPACE).endMetadata().build()).create();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void version(String minor) {
        cluster.server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor(minor).build());
    }

    private void node(String name, String size, boolean spot, int gpus) {
        NodeBuilder node = new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("node.kubernetes.io/instance-type", size)
                .addToLabels("kubernetes.azure.com/scalesetpriority", spot ? "spot" : "regular").endMetadata();
        if (gpus > 0) {
            node.withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                    .endStatus();
        }
        cluster.controller.nodes().resource(node.build()).create();
    }

    private static List<String> paths(List<Problem> problems) {
        return problems.stream().map(Problem::path).toList();
    }

    @Test
    void aPlanTheClusterCanRunHasNoProblemAndTheFactsAreReadOnce() {
        node("n1", "tck-small", false, 0);
        try (Backend backend = cluster.backend(state)) {
            assertEquals(List.of(), backend.validate(MockCluster.plan("fine", 1)));
            long cost = backend.remoteCalls().getAsLong();
            assertEquals(3, cost, "/version, the namespace, the nodes of the size");
            assertEquals(List.of(), backend.validate(MockCluster.plan("fine", 1)));
            assertEquals(cost, backend.remoteCalls().getAsLong(), "cached");
        }
    }

    @Test
    void everyProblemTheClusterShowsHasItsPathAndFix() {
        version("31");
        cluster.controller.namespaces().withName(MockCluster.NAMESPACE).delete();
        node("n1", "tck-small", false, 0);
        cluster.controller.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("ckpt").withNamespace(MockCluster.NAMESPACE).endMetadata().withNewSpec()
                .withAccessModes("ReadWriteOnce").endSpec().build()).create();
        Plan twoNodes = MockCluster.plan("big", 2);
        try (Backend backend = cluster.backend(state, "checkpointClaim", "ckpt")) {
            List<Problem> problems = backend.validate(twoNodes);
            assertEquals(List.of("backends.aks", "backends.aks.namespace", "backends.aks",
                    "backends.aks.checkpointClaim"), paths(problems), problems.toString());
            assertTrue(problems.get(0).message().contains("1.31") && problems.get(0).message().contains("1.32"));
            assertTrue(problems.get(1).message().contains("kubectl create namespace ml-jobs"));
            assertTrue(problems.get(2).message().contains("needs 2 nodes of size tck-small but the cluster has 1"),
                    problems.get(2).message());
            assertTrue(problems.get(3).message().contains("ReadWriteOnce")
                    && problems.get(3).message().contains("ReadWriteMany"));
        }
    }

    @Test
    void gpuAndSpotPlansNeedNodesThatCanTakeThem() {
        node("gpu1", MockCluster.T4.name(), false, 0);
        Plan gpu = Plan.builder(MockCluster.plan("gpu", 1).workload(), MockCluster.T4).build();
        Plan spot = Plan.builder(MockCluster.plan("spot", 1).workload(), MockCluster.T4).spot(true).build();
        try (Backend backend = cluster.backend(state)) {
            List<Problem> gpuProblems = backend.validate(gpu);
            assertEquals(1, gpuProblems.size(), gpuProblems.toString());
            assertTrue(gpuProblems.get(0).message().contains("advertises nvidia.com/gpu")
                    && gpuProblems.get(0).message().contains("device plugin"));
            List<Problem> spotProblems = backend.validate(spot);
            assertTrue(spotProblems.get(0).message().contains("no Spot node of size " + MockCluster.T4.name()),
                    spotProblems.toString());
        }
    }

    @Test
    void withoutPermissionToListNodesValidateSaysWhichPermissionToGrantInsteadOfFailing() {
        cluster.server.expect().get().withPath("/api/v1/nodes?labelSelector=node.kubernetes.io%2Finstance-type%3D"
                + "tck-small").andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
                + "\"Failure\",\"message\":\"nodes is forbidden\",\"reason\":\"Forbidden\",\"code\":403}")
                .always();
        try (Backend backend = cluster.backend(state)) {
            assertEquals(List.of(), backend.validate(MockCluster.plan("blind", 1)));
            assertTrue(cluster.logged.stream().anyMatch(m -> m.contains("may not list nodes")
                    && m.contains("ClusterRole")), cluster.logged.toString());
        }
    }

    @Test
    void aPlanWithoutAnImageIsRefusedWithItsPathAndFix() {
        node("n1", "tck-small", false, 0);
        Plan plan = MockCluster.plan("bare", 1);
        try (Backend backend = MockCluster.backend(cluster.kubeconfig(), state, "defaultImage", "")) {
            List<Problem> problems = backend.validate(plan);
            assertEquals(List.of("container"), paths(problems), problems.toString());
            assertTrue(problems.get(0).message().contains("backends.aks.defaultImage"));
        }
    }
}
