package dev.gantry.backend.aks.internal.state;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Which pod's log is a rank's output now: the newest pod of each rank whose container started (a requeue's
 * replacement once it runs; until then the evicted pod, whose log is what the rank said last).
 */
public final class RankPods {
    private RankPods() {
    }

    /** The newest pod of each rank that has a log, by rank. */
    public static Map<Integer, Pod> withLogs(List<Pod> pods) {
        Map<Integer, Pod> byRank = new TreeMap<>();
        pods.stream().filter(RankPods::hasLog).sorted(Comparator.comparing(PodFacts::created)).forEach(pod -> {
            OptionalInt rank = PodFacts.rank(pod);
            if (rank.isPresent()) {
                byRank.put(rank.getAsInt(), pod);
            }
        });
        return byRank;
    }

    /** Whether the pod's container started, so that it has a log to read (a Pending pod has none yet). */
    static boolean hasLog(Pod pod) {
        return !PodFacts.phase(pod).equals("Pending") || pod.getStatus() != null
                && pod.getStatus().getContainerStatuses() != null && pod.getStatus().getContainerStatuses().stream()
                .anyMatch(s -> s.getState() != null && (s.getState().getRunning() != null
                        || s.getState().getTerminated() != null));
    }

    public static String name(Pod pod) {
        return PodFacts.name(pod);
    }
}
