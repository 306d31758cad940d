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
        for (int attempt = 0; attempt < 10; attempt++) {
            Optional<Pod> found = store.get(path, Pod.class);
            if (found.isEmpty()) {
                return false;
            }
            Pod pod = found.get();
            boolean terminal = pod.getStatus() != null && ("Succeeded".equals(pod.getStatus().getPhase())
                    || "Failed".equals(pod.getStatus().getPhase()));
            if (!terminal) {
                PodConditions.set(pod, PodConditions.DISRUPTION_TARGET, "True", reason, message, clock.instant());
                if (failNow || pod.getSpec().getNodeName() == null) {
                    pod.getStatus().setPhase("Failed");
                }
                try {
                    store.replace(path, pod);
                } catch (ObjectStore.Conflict e) {
                    continue;
                }
            }
            store.delete(path, options);
            return true;
        }
        throw new IllegalStateException("pod " + namespace + "/" + name + " kept changing while being disrupted");
    }
}
