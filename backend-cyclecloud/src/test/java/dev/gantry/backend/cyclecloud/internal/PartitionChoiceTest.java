package dev.gantry.backend.cyclecloud.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.backend.cyclecloud.slurm.ClusterTesting;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A CycleCloud that cannot be reached says nothing about a plan: an error naming its setting, never a problem. */
class PartitionChoiceTest {

    @Test
    void aCycleCloudThatRefusesTheConnectionIsUnavailableNotAPlanProblem() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        CycleCloudSettings settings = CycleCloudSettings.bind(new BackendConfig("cyclecloud", Map.of(
                "address", "login.example.com", "user", "azureuser", "agent", "true", "workDir", "/shared/gantry",
                "cycleCloud.url", "https://127.0.0.1:" + port, "cycleCloud.cluster", "hpc",
                "cycleCloud.user", "alice", "cycleCloud.password", "env:GANTRY_TEST_CC_PASSWORD")));
        try (TckContext context = TckContext.create()) {
            context.putSecret(SecretRef.parse("env:GANTRY_TEST_CC_PASSWORD"), "secret");
            PartitionChoice partitions = new PartitionChoice(settings, context);
            Plan plan = ClusterTesting.plan("layout", "true");
            List<Problem> problems = new ArrayList<>();
            GantryException e = assertThrows(GantryException.class,
                    () -> ClusterProblems.addLayoutProblems(partitions, plan, problems));
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code(), e.getMessage());
            assertTrue(e.getMessage().startsWith("cannot read the cluster's node arrays "
                    + "(backends.cyclecloud.cycleCloud.url): cannot connect to CycleCloud at https://127.0.0.1:" + port),
                    e.getMessage());
            assertEquals(List.of(), problems);
            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, assertThrows(GantryException.class,
                    () -> partitions.partitionFor(plan)).code());
        }
    }
}
