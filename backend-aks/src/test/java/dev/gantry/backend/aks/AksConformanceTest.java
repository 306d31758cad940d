package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.tck.BackendConformanceTest;
import dev.gantry.tck.BackendFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
