package dev.gantry.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.backend.aks.testcluster.NodeSlot;
import dev.gantry.backend.aks.testcluster.NodeTemplate;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A gantry.yaml per backend's test environment, as a user writes one for that orchestrator: the only thing that
 * changes when the same platform code moves from one backend to another. Runs are polled every second.
 */
final class PlatformBackends {
    /** An image the Kubernetes test cluster runs as a process of this machine, for workloads that name none. */
    static final String AKS_DEFAULT_IMAGE = "mcr.microsoft.com/azurelinux/base/core:3.0";
    private static final String POLL = "runs:\n  pollInterval: 1s\n";

    private PlatformBackends() {
    }

    /** cyclecloud on the Slurm test cluster, jobs in a fresh directory under its shared one. */
    static String slurm(TestCluster cluster) throws IOException {
        return ClusterConfigs.slurm(cluster, ClusterConfigs.sharedDirectory(cluster, "platform-run"));
    }

    /**
     * The Kubernetes test cluster with one on-demand node of {@code vmSize} (an AKS node pool of that size), running
     * pods as processes of this machine in its own network.
     */
    static KubeTestCluster kubernetes(String vmSize, Path workDirectory) {
        NodeTemplate node = new NodeTemplate(NodeSlot.host(1), "platform", vmSize, false,
                Map.of("cpu", "8", "memory", "32Gi", "pods", "110", "ephemeral-storage", "100Gi"), List.of());
        return KubeTestCluster.builder().workDirectory(workDirectory).nodes(List.of(node)).start();
    }

    /**
     * The Batch fake with a shared-key account named after {@code region} whose supported images are the Data
     * Science VM's Ubuntu 22.04, the image plans of CPU work take, as Batch lists it. Pools autoscale every 200 ms
     * instead of Batch's 5 minutes, or each new pool would wait that long for its first node.
     */
    static BatchFake batchAccount(String region) {
        BatchFake fake = new BatchFake(new BatchFakeOptions().account(region)
                .autoscaleInterval(Duration.ofMillis(200)));
        ObjectNode image = new ObjectMapper().createObjectNode().put("nodeAgentSKUId", "batch.node.ubuntu 22.04");
        image.putObject("imageReference").put("publisher", "microsoft-dsvm").put("offer", "ubuntu-2204")
                .put("sku", "2204-gen2").put("version", "latest");
        image.put("osType", "linux").put("verificationType", "verified").putArray("capabilities")
                .add("DockerCompatible");
        fake.supportedImages(List.of(image));
        return fake;
    }

    /** aks on the Kubernetes test cluster, through its Role-bound user's kubeconfig written to {@code dir}. */
    static String aks(KubeTestCluster cluster, Path dir) {
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
        return String.join("\n", "backend: aks", "backends:", "  aks:", "    kubeconfig: " + kubeconfig,
                "    namespace: " + cluster.namespace(), "    defaultImage: " + AKS_DEFAULT_IMAGE, POLL);
    }

    /**
     * batch against the Batch fake: a shared-key account on loopback named after its region (the one region plans
     * may take, so that each plan finds its account), its key in a file beside the configuration.
     */
    static String batch(BatchFake fake, String region, Path dir) throws IOException {
        Path key = Files.writeString(dir.resolve("batch.key"), fake.accountKey());
        return String.join("\n", "backend: batch", "defaults: {regions: [" + region + "]}", "backends:", "  batch:",
                "    accounts:", "      - {url: \"" + fake.url() + "\", region: " + region
                        + ", auth: sharedKey, key: \"file:" + key + "\"}", POLL);
    }
}
