package dev.gantry.backend.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.slurm.ClusterTesting;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A login node that cannot be reached (a closed port on this machine: the connection is refused) is an error from
 * every call that needs it, naming the address and the setting that holds it: never a verdict on the plan
 * (PLAN_REJECTED) and never a capability turned off ("no Pyxis", "no arrays") for want of an answer.
 */
class UnreachableLoginNodeTest {
    private static final SourceLocation ADDRESS_LINE = new SourceLocation("gantry.yaml", 7, 14);

    @ParameterizedTest
    @ValueSource(strings = {"slurm", "gridengine"})
    void everyCallThatNeedsTheLoginNodeIsBackendUnavailable(String scheduler) throws Exception {
        int port = closedPort();
        Map<String, String> settings = new java.util.LinkedHashMap<>(scheduler.equals("slurm")
                ? TestCluster.get().settings() : TestCluster.get().gridEngineSettings());
        settings.put("address", "127.0.0.1");
        settings.put("port", String.valueOf(port));
        BackendConfig config = new BackendConfig("cyclecloud", settings, Map.of("address", ADDRESS_LINE));
        String expected = "(backends.cyclecloud.address at gantry.yaml:7:14) cannot be reached: cannot connect to "
                + "127.0.0.1:" + port + ": Connection refused";
        try (TckContext context = TckContext.create();
             Backend backend = new CycleCloudBackendProvider().create(config, context)) {
            var plan = ClusterTesting.plan("unreachable", "true");
            Map<String, Executable> calls = new LinkedHashMap<>();
            calls.put("validate", () -> backend.validate(plan));
            calls.put("submit", () -> backend.submit(plan, SubmitOptions.withKey("unreachable-" + scheduler)));
            calls.put("submitAll", () -> backend.submitAll(List.of(new Submission(plan, SubmitOptions.withKey("f-1")),
                    new Submission(plan, SubmitOptions.withKey("f-2")))));
            calls.put("status", () -> backend.status(new JobRef("cyclecloud", "job-unreachable-1")));
            calls.forEach((name, call) -> {
                long started = System.nanoTime();
                GantryException e = assertThrows(GantryException.class, call, name);
                assertEquals(List.of(ErrorCode.BACKEND_UNAVAILABLE, true, true), List.of(e.code(),
                        e.getMessage().contains(expected), System.nanoTime() - started < 1_000_000_000L),
                        name + " (code, names the address and its setting, refused within 1 s): " + e.getMessage());
            });
            if (scheduler.equals("slurm")) {
                // "Has Pyxis?" cannot be answered: an error, not containers turned off.
                GantryException e = assertThrows(GantryException.class, backend::capabilities);
                assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code(), e.getMessage());
            }
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
