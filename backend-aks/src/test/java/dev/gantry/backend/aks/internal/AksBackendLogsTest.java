package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs through the pods' log subresource, which the test server answers by expectation (CRUD has no logs). */
class AksBackendLogsTest {
    @TempDir
    Path home;
    @TempDir
    Path state;

    private static String logPath(Pod pod, String query) {
        return "/api/v1/namespaces/" + MockCluster.NAMESPACE + "/pods/" + pod.getMetadata().getName() + "/log?"
                + query;
    }

    @Test
    void eachRanksLogIsItsTailLinesWithTheRankAsNode() throws IOException, InterruptedException {
        try (MockCluster cluster = new MockCluster(home); Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("two", 2), SubmitOptions.withKey("two-1"));
            Pod rank1 = cluster.pod(ref.id(), 1, "Running");
            Pod rank0 = cluster.pod(ref.id(), 0, "Running");
            cluster.pod(ref.id(), 1, "Pending"); // never started: no log to read, never asked for
            cluster.server.expect().get().withPath(logPath(rank0, "pretty=false&container=workload&tailLines=2"))
                    .andReturn(200, "b0\nc0\n").once();
            cluster.server.expect().get().withPath(logPath(rank1, "pretty=false&container=workload&tailLines=2"))
                    .andReturn(200, "b1\nc1\n").once();
            List<LogLine> lines = new ArrayList<>();
            backend.logs(ref, new LogOptions(false, OptionalInt.of(2), true, true), lines::add);
            assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 0, "b0"),
                    new LogLine(LogLine.Stream.STDOUT, 0, "c0")), lines.subList(0, 2));
            assertEquals(4, lines.size(), lines.toString());
        }
    }

    /** A cancel's foreground deletion takes the pod between the list and the log read: its output went with it. */
    @Test
    void aPodDeletedBeforeItsLogIsReadHasNoOutput() throws IOException, InterruptedException {
        try (MockCluster cluster = new MockCluster(home); Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("gone", 2), SubmitOptions.withKey("gone-1"));
            Pod deleted = cluster.pod(ref.id(), 0, "Running");
            Pod kept = cluster.pod(ref.id(), 1, "Running");
            cluster.server.expect().get().withPath(logPath(deleted, "pretty=false&container=workload"))
                    .andReturn(404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}").once();
            cluster.server.expect().get().withPath(logPath(kept, "pretty=false&container=workload"))
                    .andReturn(200, "last words\n").once();
            List<LogLine> lines = new ArrayList<>();
            backend.logs(ref, LogOptions.all(), lines::add);
            assertEquals(List.of(new LogLine(LogLine.Stream.STDOUT, 1, "last words")), lines);
        }
    }

    @Test
    void anInterruptEndsAFollowAtOnce() throws Exception {
        try (MockCluster cluster = new MockCluster(home); Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("endless", 1), SubmitOptions.withKey("endless-1"));
            Pod running = cluster.pod(ref.id(), 0, "Running");
            cluster.server.expect().get().withPath(logPath(running, "pretty=false&container=workload&follow=true"))
                    .andReturn(200, "tick\n").once();
            List<LogLine> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<Throwable> ended = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread follower = new Thread(() -> {
                try {
                    backend.logs(ref, LogOptions.following(), lines::add);
                    ended.add(new AssertionError("returned while the job runs"));
                } catch (InterruptedException e) {
                    ended.add(e);
                }
            });
            follower.start();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (lines.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(List.of("tick"), lines.stream().map(LogLine::text).toList());
            follower.interrupt();
            follower.join(2_000);
            assertEquals(false, follower.isAlive(), "stopped within 2 s of the interrupt");
            assertEquals(InterruptedException.class, ended.get(0).getClass());
        }
    }

    @Test
    void followingMovesToTheReplacementPodAndReturnsOnceTheJobEndedAndItsOutputIsDrained() throws Exception {
        try (MockCluster cluster = new MockCluster(home); Backend backend = cluster.backend(state)) {
            JobRef ref = backend.submit(MockCluster.plan("requeued", 1), SubmitOptions.withKey("requeued-1"));
            Pod evicted = cluster.pod(ref.id(), 0, "Failed");
            cluster.server.expect().get().withPath(logPath(evicted, "pretty=false&container=workload&follow=true"))
                    .andReturn(200, "first run\n").once();
            List<LogLine> lines = new ArrayList<>();
            Thread follower = new Thread(() -> {
                try {
                    backend.logs(ref, LogOptions.following(), lines::add);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            follower.start();
            Thread.sleep(1_500);
            Pod replacement = cluster.pod(ref.id(), 0, "Succeeded");
            cluster.server.expect().get().withPath(logPath(replacement,
                    "pretty=false&container=workload&follow=true")).andReturn(200, "resumed\ndone\n").once();
            cluster.condition(ref.id(), "Complete");
            follower.join(10_000);
            assertEquals(List.of("first run", "resumed", "done"), lines.stream().map(LogLine::text).toList());
        }
    }
}
