package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.util.Optional;

/**
 * How pods are disrupted, each as Kubernetes 1.32 does it: the condition {@code DisruptionTarget} first (with the
 * component's reason and message), then the deletion. The Job controller's pod failure policy matches on that
 * condition.
 */
final class Disruptions {
    static final String EVICTION_BY_EVICTION_API = "EvictionByEvictionAPI";
    static final String DELETION_BY_POD_GC = "DeletionByPodGC";
    static final String DELETION_BY_TAINT_MANAGER = "DeletionByTaintManager";

    private final ObjectStore store;
    private final Clock clock;

    Disruptions(ObjectStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The eviction subresource: false when the pod does not exist. */
    boolean evict(String namespace, String name, DeleteOptions options) {
        return disrupt(namespace, name, EVICTION_BY_EVICTION_API, "Eviction API: evicting", false, options);
    }

    /** Pod GC of a pod whose node is gone: marked Failed, then deleted at once (nothing runs it any more). */
    void collectOrphan(Pod pod) {
        disrupt(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), DELETION_BY_POD_GC,
                "PodGC: node no longer exists", true, DeleteOptions.force());
    }

    /** The taint manager's eviction of a pod on a node tainted NoExecute that it does not tolerate. */
    void evictByTaint(Pod pod) {
        disrupt(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), DELETION_BY_TAINT_MANAGER,
                "Taint manager: deleting due to NoExecute taint", false, DeleteOptions.BACKGROUND);
    }

    private boolean disrupt(String namespace, String name, String reason, String message, boolean failNow,
            DeleteOptions options) {
        String path = Paths.pod(namespace, name);
        Optional<Pod> marked = store.update(path, Pod.class, null, pod -> {
            if (Scheduler.isTerminal(pod)) {
                return pod;
            }
            PodConditions.set(pod, PodConditions.DISRUPTION_TARGET, "True", reason, message, clock.instant());
            if (failNow || pod.getSpec().getNodeName() == null) {
                pod.getStatus().setPhase("Failed");
            }
            return pod;
        });
        if (marked.isEmpty()) {
            return false;
        }
        store.delete(path, options);
        return true;
    }
}
