package dev.gantry.backend.aks.internal.state;

import dev.gantry.api.backend.Eviction;
import dev.gantry.backend.aks.internal.render.JobManifest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The evictions a job has had so far, as the cluster shows them: per rank, the Job controller's count of ignored
 * failures on the rank's newest pod (each one an eviction the one-node rule requeued); the last one from the evicted
 * pod's {@code DisruptionTarget} condition while that pod is still listed, else from when its replacement was made.
 *
 * @param count evictions requeued so far
 * @param last the last one, present exactly when {@code count > 0}
 */
record Requeues(int count, Optional<Eviction> last) {
    static Requeues of(List<Pod> pods) {
        Map<Integer, Integer> byRank = new HashMap<>();
        Pod replacement = null;
        for (Pod pod : pods) {
            int ignored = PodFacts.ignoredFailures(pod);
            PodFacts.rank(pod).ifPresent(rank -> byRank.merge(rank, ignored, Math::max));
            if (ignored > 0 && (replacement == null || PodFacts.created(pod).isAfter(PodFacts.created(replacement)))) {
                replacement = pod;
            }
        }
        int count = byRank.values().stream().mapToInt(Integer::intValue).sum();
        if (count == 0) {
            return new Requeues(0, Optional.empty());
        }
        Optional<Eviction> evicted = pods.stream().filter(pod -> PodFacts.phase(pod).equals("Failed"))
                .sorted(PodFacts.newestFirst())
                .flatMap(pod -> PodFacts.condition(pod, JobManifest.DISRUPTION_TARGET).stream())
                .findFirst().map(Requeues::eviction);
        Pod newest = replacement;
        return new Requeues(count, Optional.of(evicted.orElseGet(() -> new Eviction(PodFacts.created(newest),
                "requeued: the pod of rank " + PodFacts.rank(newest).orElse(0) + " was replaced after an eviction"))));
    }

    /** The eviction a {@code DisruptionTarget} condition records: its time and {@code REASON: message}. */
    static Eviction eviction(PodCondition disruption) {
        String reason = Optional.ofNullable(disruption.getReason()).orElse(JobManifest.DISRUPTION_TARGET);
        String message = Optional.ofNullable(disruption.getMessage()).filter(m -> !m.isBlank())
                .map(m -> ": " + m).orElse("");
        return new Eviction(PodFacts.time(disruption.getLastTransitionTime()).orElse(java.time.Instant.EPOCH),
                reason + message);
    }
}
