package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole conformance kit against the Kubernetes test cluster, one per test class: Spot single-node plans that
 * are requeued when their node is deleted, two-node plans with one rank in each node namespace, and the kit's
 * busybox image run under Podman. After the whole run (the kit's cleanup cancels included), the documented Role
 * refused none of the backend's requests.
 */
class AksConformanceTest extends BackendConformanceTest {
    private final KubeTestCluster cluster = KubeTestCluster.builder().start();
    private final Path home = temporaryDirectory();
    private final AksKitFixture fixture = new AksKitFixture(cluster, home.resolve("kube/config"));

    /** Runs after the kit's own {@code @AfterAll}, which cancels what is left and closes the backend. */
    @RegisterExtension
    final AfterAllCallback noRequestForbidden = this::checkAndStop;

    @Override
    protected BackendFixture fixture() {
        return fixture;
    }

    /**
     * Beyond the kit's rendezvous: the anti-affinity puts one rank on each node (each its own network namespace), and
     * both find rank 0 by its pod hostname under the job's headless Service, {@code NAME-0.NAME}.
     */
    @Test
    void twoNodeRanksRunOnTwoNodesAndFindRankZeroByItsPodHostname() throws Exception {
        Plan plan = fixture.twoNodePlan(workload("two-node-dns").command("sh", "-c", "echo \"master=$MASTER_ADDR\"")
                .build());
        JobRef job = submit(plan, key("two-node-dns"));
        assertEquals(JobState.SUCCEEDED, awaitEnd(job).state());
        String master = "master=" + job.id() + "-0." + job.id();
        assertEquals(List.of(master, master), lines(job, LogOptions.all()));
        Set<String> nodes = fixture.pods(job).stream().map(pod -> pod.getSpec().getNodeName())
                .collect(Collectors.toSet());
        assertEquals(2, nodes.size(), "one rank per node: " + nodes);
    }

    private void checkAndStop(ExtensionContext context) {
        if (context.getRequiredTestClass() != AksConformanceTest.class) {
            return; // the nested groups inherit the extension; the cluster outlives them all
        }
        try {
            List<String> forbidden = cluster.forbiddenRequests();
            assertEquals(List.of(), forbidden, "requests the documented Role refused during the kit run");
        } finally {
            cluster.close();
            home.resolve("kube/config").toFile().delete();
            home.resolve("kube").toFile().delete();
            home.toFile().delete();
        }
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("gantry-aks-kit-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
