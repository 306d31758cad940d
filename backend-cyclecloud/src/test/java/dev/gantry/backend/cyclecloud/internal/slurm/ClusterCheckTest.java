package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.slurm.ClusterTesting;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.hosts.SshHost;
import dev.gantry.ssh.SshPool;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What the cluster has is what its probe found: a login node that cannot be asked is an error from every question
 * that needs the probe, never "no Pyxis" (containers turned off), "no arrays" (a fan-out sent job by job) or a plan
 * that does not fit.
 */
class ClusterCheckTest {

    @Test
    void aLoginNodeThatCannotBeReachedAnswersNothingAboutTheCluster() throws Exception {
        Map<String, String> values = new HashMap<>(TestCluster.get().settings());
        values.put("address", "127.0.0.1");
        values.put("port", String.valueOf(closedPort()));
        CycleCloudSettings settings = CycleCloudSettings.bind(new BackendConfig("cyclecloud", values));
        try (SshPool pool = new SshPool(); TckContext context = TckContext.create()) {
            SshHost host = new SshHost("login", settings.login(), "backends.cyclecloud.address", settings.workDir(),
                    OptionalInt.empty(), pool, Duration.ofSeconds(5));
            ClusterCheck check = new ClusterCheck(new LoginNode(host, ""), settings,
                    new PartitionChoice(settings, context));
            Map<String, Executable> questions = Map.of(
                    "pyxis", check::pyxis,
                    "arrays", check::arrays,
                    "problems", () -> check.problems(ClusterTesting.plan("unreachable", "true")));
            questions.forEach((name, question) -> {
                GantryException e = assertThrows(GantryException.class, question, name);
                assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code(), name + ": " + e.getMessage());
            });
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
