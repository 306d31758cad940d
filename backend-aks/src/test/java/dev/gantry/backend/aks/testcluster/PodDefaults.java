package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * What the API server adds to a pod it admits: the scheduler's name, grace period, DNS policy, and (the
 * DefaultTolerationSeconds admission plugin) 300-second tolerations of {@code not-ready} and {@code unreachable}
 * unless the pod has its own.
 */
final class PodDefaults {
    private PodDefaults() {
    }

    static void apply(PodSpec spec) {
        if (spec.getSchedulerName() == null) {
            spec.setSchedulerName("default-scheduler");
        }
        if (spec.getTerminationGracePeriodSeconds() == null) {
            spec.setTerminationGracePeriodSeconds(30L);
        }
        if (spec.getDnsPolicy() == null) {
            spec.setDnsPolicy("ClusterFirst");
        }
        if (spec.getEnableServiceLinks() == null) {
            spec.setEnableServiceLinks(true);
        }
        List<Toleration> tolerations = new ArrayList<>(spec.getTolerations());
        for (String key : List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")) {
            boolean present = tolerations.stream().anyMatch(t -> key.equals(t.getKey())
                    && (t.getEffect() == null || t.getEffect().isEmpty() || "NoExecute".equals(t.getEffect())));
            if (!present) {
                tolerations.add(new TolerationBuilder().withKey(key).withOperator("Exists").withEffect("NoExecute")
                        .withTolerationSeconds(300L).build());
            }
        }
        spec.setTolerations(tolerations);
    }

    /** Guaranteed when every container's requests equal its limits for cpu and memory; BestEffort with none. */
    static String qosClass(PodSpec spec) {
        boolean any = false;
        boolean guaranteed = true;
        for (Container c : spec.getContainers()) {
            var r = c.getResources();
            if (r == null || (r.getLimits().isEmpty() && r.getRequests().isEmpty())) {
                guaranteed = false;
                continue;
            }
            any = true;
            for (String key : List.of("cpu", "memory")) {
                var limit = r.getLimits().get(key);
                var request = r.getRequests().getOrDefault(key, limit);
                if (limit == null || !limit.equals(request)) {
                    guaranteed = false;
                }
            }
        }
        return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
    }
}
