package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Taint-based eviction (the node lifecycle controller's NoExecute taint manager): a pod on a node with a NoExecute
 * taint it does not tolerate is evicted at once; one it tolerates for {@code tolerationSeconds} is evicted that long
 * after the taint was added; one it tolerates without a limit stays. The eviction marks it {@code DisruptionTarget}
 * ({@code DeletionByTaintManager}) and deletes it gracefully; on a node whose kubelet is gone it stays Terminating
 * until the node itself is deleted, as on a real cluster.
 */
final class TaintManager {
    private final Disruptions disruptions;
    private final Clock clock;

    TaintManager(Disruptions disruptions, Clock clock) {
        this.disruptions = disruptions;
        this.clock = clock;
    }

    void evict(List<Pod> pods, List<Node> nodes) {
        Instant now = clock.instant();
        for (Node node : nodes) {
            List<Taint> noExecute = node.getSpec().getTaints().stream()
                    .filter(t -> "NoExecute".equals(t.getEffect())).toList();
            if (noExecute.isEmpty()) {
                continue;
            }
            for (Pod pod : pods) {
                if (node.getMetadata().getName().equals(pod.getSpec().getNodeName()) && JobController.isLive(pod)
                        && evictionDue(pod, noExecute, now)) {
                    disruptions.evictByTaint(pod);
                }
            }
        }
    }

    /** Due when some taint is not tolerated, or tolerated for less time than has passed since it was added. */
    private static boolean evictionDue(Pod pod, List<Taint> taints, Instant now) {
        for (Taint taint : taints) {
            List<Toleration> tolerating = pod.getSpec().getTolerations().stream()
                    .filter(t -> Scheduler.tolerates(t, taint)).toList();
            if (tolerating.isEmpty()) {
                return true;
            }
            Optional<Long> shortest = tolerating.stream().map(Toleration::getTolerationSeconds)
                    .filter(s -> s != null).min(Long::compare);
            if (tolerating.stream().allMatch(t -> t.getTolerationSeconds() != null) && shortest.isPresent()) {
                Instant added = taint.getTimeAdded() == null ? now : Instant.parse(taint.getTimeAdded());
                if (!now.isBefore(added.plusSeconds(Math.max(0, shortest.get())))) {
                    return true;
                }
            }
        }
        return false;
    }
}
