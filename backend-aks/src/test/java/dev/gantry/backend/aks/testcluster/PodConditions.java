package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading and setting a pod's conditions, replacing one of the same type as the API server's helpers do. */
final class PodConditions {
    static final String DISRUPTION_TARGET = "DisruptionTarget";

    private PodConditions() {
    }

    static void set(Pod pod, String type, String status, String reason, String message, Instant now) {
        if (pod.getStatus() == null) {
            pod.setStatus(new PodStatus());
        }
        List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions());
        conditions.removeIf(c -> type.equals(c.getType()));
        conditions.add(new PodConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(message).withLastTransitionTime(ObjectStore.timestamp(now)).build());
        pod.getStatus().setConditions(conditions);
    }

    static Optional<PodCondition> find(Pod pod, String type) {
        if (pod.getStatus() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    static boolean isTrue(Pod pod, String type) {
        return find(pod, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }
}
