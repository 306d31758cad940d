package dev.gantry.backend.manual.internal;

import static dev.gantry.backend.manual.internal.SshJobs.plan;
import static dev.gantry.backend.manual.internal.SshJobs.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.ManualBackendProvider;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A host that cannot be reached (a closed port on this machine: the connection is refused) is BACKEND_UNAVAILABLE
 * from every call that needs it, naming its address and the setting that holds it, at once: never PLAN_REJECTED
 * (a verdict on the plan) nor JOB_NOT_FOUND (a verdict on the job).
 */
class UnreachableHostTest {

    @Test
    void validateSubmitStatusAndCancelNameTheAddressAndItsSetting() throws Exception {
        int port = closedPort();
        try (SshHosts hosts = new SshHosts(); TckContext context = TckContext.create()) {
            Map<String, String> config = new TreeMap<>(hosts.config(Map.of()));
            config.keySet().removeIf(key -> key.startsWith("hosts[1]"));
            config.put("hosts[0].address", "127.0.0.1");
            config.put("hosts[0].port", String.valueOf(port));
            BackendConfig located = new BackendConfig("manual", config,
                    Map.of("hosts[0].address", new SourceLocation("gantry.yaml", 9, 18)));
            String expected = "(backends.manual.hosts[0].address at gantry.yaml:9:18) cannot be reached: cannot "
                    + "connect to 127.0.0.1:" + port + ": Connection refused";
            try (var backend = new ManualBackendProvider().create(located, context)) {
                Plan plan = plan(workload("unreachable").command("true"), 1, 0);
                JobRef job = new JobRef("manual", "job-unreachable-1");
                List<Executable> calls = List.of(
                        () -> backend.validate(plan),
                        () -> backend.submit(plan, SubmitOptions.withKey("unreachable-1")),
                        () -> backend.status(job),
                        () -> backend.statuses(List.of(job)),
                        () -> backend.cancel(job));
                for (Executable call : calls) {
                    long started = System.nanoTime();
                    GantryException e = assertThrows(GantryException.class, call);
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code(), e.getMessage());
                    assertTrue(e.getMessage().contains(expected), e.getMessage());
                    assertTrue(millis < 1000, "refused after " + millis + " ms");
                }
            }
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
