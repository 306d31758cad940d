package dev.gantry.backend.aks.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.backend.JobStatus;
import dev.gantry.testing.GoldenFiles;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        "suspended-until-secret", "suspended-for-kueue", "no-pods-yet", "unschedulable", "pulling-image",
        "err-image-pull", "image-pull-backoff", "create-container-config-error", "invalid-image-name",
        "two-ranks-one-placed", "two-ranks-running", "complete", "exit-code-3", "command-not-found",
        "start-error-no-shell", "oom-killed", "multi-node-disruption-target", "multi-node-exit-code", "requeued-old-pod-gone",
        "requeued-old-pod-listed", "force-deleted-node-gone", "force-deleted-pod-gone", "force-deleted-pod-listed",
        "killed-by-own-signal", "node-not-ready", "phase-unknown", "cancelling", "cancelled"})
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
