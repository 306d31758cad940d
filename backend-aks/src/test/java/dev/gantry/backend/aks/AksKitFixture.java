package dev.gantry.backend.aks;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.testing.TestPodman;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The conformance kit's view of the Kubernetes test cluster: its two Spot {@code tck-small} nodes, one in each node
 * network namespace, and the Role-bound user's kubeconfig written to a file and named in {@code backends.aks.*} as a
 * user's gantry.yaml names it. Every backend the kit creates (the restart cases make a second over the same context)
 * binds the same settings. Plans are Spot, so an eviction (the job's node deleted, as Azure deletes a Spot VM, and a
 * replacement joining) is requeued by the Job controller.
 */
class AksKitFixture implements BackendFixture {
    /** An image the test cluster runs as a plain process of its node, for workloads that name none. */
    static final String DEFAULT_IMAGE = "mcr.microsoft.com/azurelinux/base/core:3.0";

    private final KubeTestCluster cluster;
    private final Path kubeconfig;

    AksKitFixture(KubeTestCluster cluster, Path kubeconfig) {
        this(cluster, kubeconfig, cluster.serverUrl());
    }

    /** A fixture whose backends reach the API server at {@code server}, such as a TCP proxy in front of it. */
    AksKitFixture(KubeTestCluster cluster, Path kubeconfig, String server) {
        this.cluster = cluster;
        this.kubeconfig = cluster.writeKubeconfig(kubeconfig, server);
    }

    /** The settings a gantry.yaml's {@code backends.aks} section gives for the test cluster. */
    Map<String, String> settings() {
        return Map.of("kubeconfig", kubeconfig.toString(), "namespace", cluster.namespace(),
                "defaultImage", DEFAULT_IMAGE);
    }

    @Override
    public Backend create(TckContext context) {
        return new AksBackendProvider().create(new BackendConfig("aks", settings()), context);
    }

    @Override
    public Plan plan(Workload workload) {
        return Plan.builder(workload, BackendFixture.smallCpuSize()).spot(true).build();
    }

    /** The job's node is deleted as Azure deletes a Spot VM; the pool's next VM joins in its place. */
    @Override
    public void evict(Backend backend, JobRef job) throws Exception {
        String node = nodeOf(job);
        String replacement = cluster.evictNode(node).get(timeout().toMillis(), TimeUnit.MILLISECONDS);
        if (replacement.equals(node)) {
            throw new AssertionError("the replacement of " + node + " took its name");
        }
    }

    /** The node the job's first running pod is bound to. */
    String nodeOf(JobRef job) {
        List<Pod> pods = pods(job);
        return pods.stream().filter(pod -> "Running".equals(pod.getStatus().getPhase()))
                .map(pod -> pod.getSpec().getNodeName()).findFirst()
                .orElseThrow(() -> new AssertionError(job + " has no running pod to evict: " + pods.size() + " pods"));
    }

    /** The job's pods as the cluster's admin sees them (not counted as the backend's requests). */
    List<Pod> pods(JobRef job) {
        try (KubernetesClient admin = admin()) {
            return admin.pods().inNamespace(cluster.namespace()).withLabel("gantry.dev/job", job.id()).list()
                    .getItems();
        }
    }

    /** A client of the cluster's admin, unrestricted by the Role; close it. */
    KubernetesClient admin() {
        return new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    @Override
    public String containerImage() {
        // The kit's busybox image (scripts/setup-podman.sh), which the test cluster runs under Podman.
        return TestPodman.IMAGE;
    }

    /** The test image's own file (scripts/setup-podman.sh writes it). */
    @Override
    public Optional<String> fileOnlyInContainerImage() {
        return Optional.of(TestPodman.FILE_ONLY_IN_IMAGE);
    }

    /** Requests of the Role's user, as the test server counts them: every backend instance's together. */
    @Override
    public OptionalLong remoteCalls(Backend backend) {
        return OptionalLong.of(cluster.requestCount());
    }

    /** A warm poll answers from the informers' cache: no request at all. */
    @Override
    public int statusCallsAllowed() {
        return 0;
    }

    /** A requeue waits for pod GC and the replacement node (about a second each here); pods start in under one. */
    @Override
    public Duration timeout() {
        return Duration.ofSeconds(30);
    }
}
