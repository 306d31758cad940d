package dev.gantry.cli.swap;

import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.backend.cyclecloud.gridengine.GridEngineKitFixture;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.hosts.events.FakeMetadataService;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How the test environment evicts a Spot job on each backend, as the orchestrator sees an evicted Spot VM: the
 * mechanism each backend's own tests use. Batch's, the fake's control endpoint, is {@link EntraBatchFake#preempt}.
 */
final class Evictions {
    /** The Slurm node's reason while it is down; the node is resumed at once. */
    static final String SLURM_REASON = "gantry-swap-proof";

    private Evictions() {
    }

    /** Evicts the job whose backend id is given; {@link #evicted} runs once Gantry counted the eviction. */
    interface Eviction {
        void evict(String backendJobId) throws Exception;

        /** After the eviction was counted: the VM is back, or replaced (default: nothing to do). */
        default void evicted() {
        }
    }

    /**
     * Manual backend (local or SSH): a Preempt Scheduled Event for the VM; the backend sees it on its next status
     * poll and ends the job PREEMPTED. Once counted, the event is cleared, as on the replacement VM.
     */
    static Eviction preemptEvent(FakeMetadataService imds, String vm) {
        return new Eviction() {
            @Override
            public void evict(String backendJobId) {
                imds.injectPreempt(vm);
            }

            @Override
            public void evicted() {
                imds.clearEvents();
            }
        };
    }

    /**
     * Slurm: the job's node goes down (reason {@value #SLURM_REASON}) and is resumed at once, as a replacement Spot
     * VM joins; Slurm requeues the job, which runs again.
     */
    static Eviction slurmNodeFails(Path workDir) {
        return backendJobId -> {
            String slurmId = Files.readString(workDir.resolve(backendJobId).resolve("slurm-id")).strip();
            String node = TestCluster.slurm("squeue", "-h", "-j", slurmId, "-o", "%N").strip().split(",")[0];
            TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=down", "reason=" + SLURM_REASON);
            TestCluster.slurm("scontrol", "update", "nodename=" + node, "state=resume");
        };
    }

    /**
     * Grid Engine: the job's shepherd and processes die at once with no exit record, as on an evicted VM; Grid
     * Engine reruns the (rerunnable) Spot job.
     */
    static Eviction gridEngineRunLost(Path workDir) {
        return backendJobId -> GridEngineKitFixture.loseTheRun(workDir, new JobRef("cyclecloud", backendJobId));
    }

    /**
     * AKS: Azure deletes the Spot node that runs the job's pod; the scale set's replacement joins a second later.
     */
    static Eviction aksNodeDeleted(KubeTestCluster cluster) {
        return backendJobId -> {
            try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build()) {
                List<Pod> pods = admin.pods().inNamespace(cluster.namespace()).withLabel("gantry.dev/job",
                        backendJobId).list().getItems();
                String node = pods.stream().filter(pod -> "Running".equals(pod.getStatus().getPhase()))
                        .map(pod -> pod.getSpec().getNodeName()).findFirst()
                        .orElseThrow(() -> new AssertionError(backendJobId + " has no running pod: " + pods));
                cluster.evictNode(node);
            }
        };
    }
}
