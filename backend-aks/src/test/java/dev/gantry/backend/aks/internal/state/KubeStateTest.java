package dev.gantry.backend.aks.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.testing.GoldenFiles;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The status table, row by row: each {@code golden/status/ROW.yaml} holds recorded objects (the Job, its pods, their
 * nodes as the API server returns them) and {@code ROW.expected} the status Gantry reports for them.
 */
class KubeStateTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/status");

    @ParameterizedTest
    @ValueSource(strings = {
        "suspended-until-secret", "suspended-for-kueue", "no-pods-yet", "unschedulable", "pool-being-created",
        "pulling-image", "err-image-pull", "image-pull-backoff", "create-container-config-error", "invalid-image-name",
        "two-ranks-one-placed", "two-ranks-running", "complete", "exit-code-3", "command-not-found",
        "start-error-no-shell", "oom-killed", "multi-node-disruption-target", "multi-node-exit-code", "requeued-old-pod-gone",
        "requeued-old-pod-listed", "force-deleted-node-gone", "force-deleted-pod-gone", "force-deleted-pod-listed",
        "killed-by-own-signal", "node-not-ready", "phase-unknown", "cancelling", "cancelled-pod-being-deleted",
        "cancelled"})
    void everyRowOfTheTable(String row) {
        KubernetesList recorded = Serialization.unmarshal(GOLDEN.read(row + ".yaml"), KubernetesList.class);
        List<HasMetadata> items = recorded.getItems();
        Job job = items.stream().filter(Job.class::isInstance).map(Job.class::cast).findFirst().orElseThrow();
        List<Pod> pods = items.stream().filter(Pod.class::isInstance).map(Pod.class::cast).toList();
        Map<String, Node> nodes = new LinkedHashMap<>();
        items.stream().filter(Node.class::isInstance).map(Node.class::cast)
                .forEach(node -> nodes.put(node.getMetadata().getName(), node));
        assertEquals(items.size(), 1 + pods.size() + nodes.size(), "only Jobs, Pods and Nodes are recorded");
        GOLDEN.assertMatches(row + ".expected", shown(KubeState.of(job, pods, nodes)));
    }

    @Test
    void ranksNotAllPlacedWithinTheGangTimeoutEndTheJob() {
        KubernetesList recorded = Serialization.unmarshal(GOLDEN.read("two-ranks-one-placed.yaml"),
                KubernetesList.class);
        Job job = recorded.getItems().stream().filter(Job.class::isInstance).map(Job.class::cast).findFirst()
                .orElseThrow();
        List<Pod> pods = recorded.getItems().stream().filter(Pod.class::isInstance).map(Pod.class::cast).toList();
        Instant start = Instant.parse(job.getStatus().getStartTime());
        Duration timeout = Duration.ofMinutes(15);
        assertEquals(Optional.empty(), KubeState.gangTimedOut(job, pods, timeout, start.plusSeconds(899)));
        JobStatus ended = KubeState.gangTimedOut(job, pods, timeout, start.plusSeconds(900)).orElseThrow();
        assertEquals(JobState.FAILED, ended.state());
        assertEquals("could not start: only 1 of 2 ranks were placed in 15m: 0/2 nodes are available: 1 node(s) "
                + "didn't match pod anti-affinity rules, 1 node(s) had untolerated taint {sku: gpu}. preemption: 0/2 "
                + "nodes are available: 2 Preemption is not helpful for scheduling.", ended.message());
        assertEquals(Optional.of(start.plusSeconds(900)), ended.endedAt());
        List<Pod> placed = List.of(pods.get(0), new PodBuilder(pods.get(1)).editSpec().withNodeName("aks-2")
                .endSpec().build());
        assertEquals(Optional.empty(), KubeState.gangTimedOut(job, placed, timeout, start.plusSeconds(3600)),
                "every rank placed");
        Job suspended = new JobBuilder(job).editSpec().withSuspend(true).endSpec().build();
        assertEquals(Optional.empty(), KubeState.gangTimedOut(suspended, pods, timeout, start.plusSeconds(3600)),
                "Kueue admits it whole");
    }

    /** A status as the golden files show it, one field a line. */
    static String shown(JobStatus status) {
        return "state: " + status.state() + "\n"
                + "exitCode: " + (status.exitCode().isPresent() ? status.exitCode().getAsInt() : "none") + "\n"
                + "message: " + status.message() + "\n"
                + "startedAt: " + status.startedAt().map(Object::toString).orElse("none") + "\n"
                + "endedAt: " + status.endedAt().map(Object::toString).orElse("none") + "\n"
                + "evictions: " + status.evictions() + "\n"
                + "lastEviction: " + status.lastEviction().map(e -> e.at() + " " + e.reason()).orElse("none") + "\n";
    }

}
