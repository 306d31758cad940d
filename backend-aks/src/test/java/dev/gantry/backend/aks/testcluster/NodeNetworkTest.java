package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods in their nodes' network namespaces (made by {@code scripts/test-kube.sh up}): each rank of a two-node job
 * runs in its own namespace at its node's address, and rank 1 reaches rank 0 by the DNS name a headless Service
 * gives it, through the node's hosts file.
 */
class NodeNetworkTest {
    private static final String LISTEN = "perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalPort => 29500,"
            + " Listen => 1, ReuseAddr => 1) or die \"listen: $!\"; $c = $s->accept; print \"rank 0 on \", `hostname`,"
            + " \"heard: \", scalar <$c>'";
    private static final String CONNECT = "for i in $(seq 100); do perl -MIO::Socket::INET -e '$c ="
            + " IO::Socket::INET->new(PeerAddr => $ARGV[0], PeerPort => 29500) or exit 1; print $c \"hello from \","
            + " `hostname`' \"$MASTER_ADDR\" && exit 0; sleep 0.1; done; echo never reached $MASTER_ADDR; exit 1";

    @TempDir
    Path work;

    @Test
    void rankOneReachesRankZeroByItsHeadlessServiceName() {
        try (KubeTestCluster cluster = KubeTestCluster.builder().workDirectory(work).start();
                KubernetesClient gantry = new KubernetesClientBuilder().withConfig(cluster.config()).build()) {
            gantry.services().resource(new ServiceBuilder().withNewMetadata().withName("meet").endMetadata()
                    .withNewSpec().withClusterIP("None").withPublishNotReadyAddresses(true)
                    .addToSelector("gantry.dev/job", "meet").endSpec().build()).create();
            gantry.batch().v1().jobs().resource(twoRanks()).create();
            Job done = gantry.batch().v1().jobs().withName("meet").waitUntilCondition(j -> j != null
                    && j.getStatus() != null && JobController.finished(j.getStatus()), 60, TimeUnit.SECONDS);
            List<Pod> pods = gantry.pods().withLabel(JobController.JOB_NAME, "meet").list().getItems().stream()
                    .sorted(Comparator.comparing(p -> p.getMetadata().getAnnotations()
                            .get(JobController.COMPLETION_INDEX))).toList();
            String rank0Log = gantry.pods().withName(pods.get(0).getMetadata().getName()).getLog();
            String rank1Log = gantry.pods().withName(pods.get(1).getMetadata().getName()).getLog();
            assertEquals("0,1", done.getStatus().getCompletedIndexes(), rank0Log + rank1Log);
            assertEquals("rank 0 on meet-0\nheard: hello from meet-1\n", rank0Log);
            assertNotEquals(pods.get(0).getSpec().getNodeName(), pods.get(1).getSpec().getNodeName());
            assertEquals(List.of("10.200.0.151", "10.200.0.152"), pods.stream().map(p -> p.getStatus().getPodIP())
                    .sorted().toList());
        }
    }

    @Test
    void withoutTheNodeNamespacesTheClusterSaysHowToMakeThem() {
        NodeTemplate nowhere = NodeTemplate.kit(new NodeSlot("gantry-k99", "10.200.0.249"));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> KubeTestCluster.builder().workDirectory(work).nodes(List.of(nowhere)).start());
        assertTrue(e.getMessage().contains("gantry-k99 does not exist") && e.getMessage().contains(
                "scripts/test-kube.sh up"), e.getMessage());
    }

    private static Job twoRanks() {
        return new JobBuilder().withNewMetadata().withName("meet").endMetadata().withNewSpec().withCompletions(2)
                .withParallelism(2).withCompletionMode("Indexed").withBackoffLimitPerIndex(0).withMaxFailedIndexes(0)
                .withNewTemplate().withNewMetadata().addToLabels("gantry.dev/job", "meet").endMetadata()
                .withNewSpec().withRestartPolicy("Never").withSubdomain("meet")
                .addNewToleration().withKey(NodeTemplate.SCALE_SET_PRIORITY).withOperator("Exists").endToleration()
                .withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("gantry.dev/job", "meet").endLabelSelector()
                .withTopologyKey(NodeTemplate.HOSTNAME).endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().endAffinity()
                .addNewContainer().withName("main").withImage("busybox").addNewEnv().withName("MASTER_ADDR")
                .withValue("meet-0.meet").endEnv()
                .withCommand("/bin/sh", "-c", "if [ \"$JOB_COMPLETION_INDEX\" = 0 ]; then " + LISTEN + "; else "
                        + CONNECT + "; fi")
                .endContainer().endSpec().endTemplate().endSpec().build();
    }
}
