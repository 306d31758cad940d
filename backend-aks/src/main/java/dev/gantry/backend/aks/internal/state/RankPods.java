package dev.gantry.backend.aks.internal.state;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/** Which pod's log is a rank's output now: the newest pod of each rank (a requeue's replacement after an eviction). */
public final class RankPods {
    private RankPods() {
    }

    /** The newest pod of each rank, by rank. */
    public static Map<Integer, Pod> current(List<Pod> pods) {
        Map<Integer, Pod> byRank = new TreeMap<>();
        pods.stream().sorted(Comparator.comparing(PodFacts::created)).forEach(pod -> {
            OptionalInt rank = PodFacts.rank(pod);
            if (rank.isPresent()) {
                byRank.put(rank.getAsInt(), pod);
            }
        });
        return byRank;
    }

    /** Whether the pod's container started, so that it has a log to read (a Pending pod has none yet). */
    public static boolean hasLog(Pod pod) {
        return !PodFacts.phase(pod).equals("Pending") || pod.getStatus() != null
                && pod.getStatus().getContainerStatuses() != null && pod.getStatus().getContainerStatuses().stream()
                .anyMatch(s -> s.getState() != null && (s.getState().getRunning() != null
                        || s.getState().getTerminated() != null));
    }

    /** Whether the pod ended, so that its log is complete. */
    public static boolean ended(Pod pod) {
        return PodFacts.ended(pod);
    }

    public static String name(Pod pod) {
        return PodFacts.name(pod);
    }
}
