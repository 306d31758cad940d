package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class AksBackendFaultTest {
    private static final String JOBS = "/apis/batch/v1/namespaces/" + MockCluster.NAMESPACE + "/jobs";
    private static final String STATUS_429 = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"too many requests\",\"reason\":\"TooManyRequests\",\"code\":429}";
    private static final String STATUS_500 = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"etcd is down\",\"reason\":\"InternalError\",\"code\":500}";

    @TempDir
    Path home;
    @TempDir
    Path state;

    @Test
    void aThrottledCreateIsRetriedAfterItsRetryAfter() throws IOException {
        try (MockCluster cluster = new MockCluster(home)) {
            cluster.server.expect().post().withPath(JOBS).andReturn(429, STATUS_429).withHeader("Retry-After", "2")
                    .once();
            try (Backend backend = cluster.backend(state)) {
                long start = System.nanoTime();
                JobRef ref = backend.submit(MockCluster.plan("busy", 1), SubmitOptions.withKey("busy-1"));
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.toMillis() >= 1_900, "waited for Retry-After, not the first backoff of 250 ms: " + took);
                assertEquals(2, backend.remoteCalls().getAsLong(), "the 429 and the retry, both counted");
                assertTrue(cluster.job(ref.id()) != null);
            }
        }
    }

    @Test
    void aServerErrorMoreTimesThanTheRetryLimitIsAnErrorNamingTheRequest() throws IOException {
        try (MockCluster cluster = new MockCluster(home)) {
            cluster.server.expect().post().withPath(JOBS).andReturn(500, STATUS_500).always();
            try (Backend backend = cluster.backend(state)) {
                GantryException e = assertThrows(GantryException.class, () -> backend.submit(
                        MockCluster.plan("down", 1), SubmitOptions.withKey("down-1")));
                assertEquals(ErrorCode.REMOTE_ERROR, e.code());
                assertTrue(e.getMessage().startsWith("creating Job ") && e.getMessage().contains("HTTP 500")
                        && e.getMessage().contains("etcd is down"), e.getMessage());
                assertEquals(5, backend.remoteCalls().getAsLong(), "the first try and 4 retries");
            }
        }
    }

    @Test
    void anApiServerThatRefusesConnectionsIsUnavailableAtOnceFromValidateSubmitAndStatus() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path kubeconfig = home.resolve("refused");
        Files.writeString(kubeconfig, MockCluster.kubeconfigText("https://127.0.0.1:" + port));
        try (Backend backend = MockCluster.backend(kubeconfig, state)) {
            for (Executable call : List.<Executable>of(
                    () -> backend.validate(MockCluster.plan("x", 1)),
                    () -> backend.submit(MockCluster.plan("x", 1), SubmitOptions.withKey("x-1")),
                    () -> backend.status(new JobRef("aks", "x-1")))) {
                long start = System.nanoTime();
                GantryException e = assertThrows(GantryException.class, call);
                assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 2_000, "fast");
                assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
                assertTrue(e.getMessage().contains("https://127.0.0.1:" + port) && e.getMessage().contains(
                        kubeconfig.toString()) && e.getMessage().contains("backends.aks.kubeconfig"), e.getMessage());
            }
            assertEquals(0, backend.remoteCalls().getAsLong(), "no HTTP request was sent");
        }
    }
}
