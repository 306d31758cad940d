package dev.gantry.backend.aks.internal.state;

import dev.gantry.backend.aks.internal.render.JobManifest;
import dev.gantry.backend.aks.internal.render.PodEnvironment;
import dev.gantry.backend.aks.internal.render.RankShim;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/** What the status table reads from recorded objects, null-safe: a field the API server left out is empty here. */
final class PodFacts {
    static final String POD_SCHEDULED = "PodScheduled";

    private PodFacts() {
    }

    /** The rank of a pod of an Indexed Job, from the Job controller's annotation. */
    static OptionalInt rank(Pod pod) {
        String index = annotations(pod).get(PodEnvironment.COMPLETION_INDEX_ANNOTATION);
        try {
            return index == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(index));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** How often the Job controller replaced this rank's pod after a failure a rule ignored (an eviction). */
    static int ignoredFailures(Pod pod) {
        String count = annotations(pod).get(RankShim.IGNORED_FAILURES_ANNOTATION);
        try {
            return count == null ? 0 : Math.max(0, Integer.parseInt(count));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static Map<String, String> annotations(HasMetadata object) {
        return object.getMetadata() == null || object.getMetadata().getAnnotations() == null ? Map.of()
                : object.getMetadata().getAnnotations();
    }

    static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }

    static boolean ended(Pod pod) {
        return phase(pod).equals("Succeeded") || phase(pod).equals("Failed");
    }

    static boolean deleted(HasMetadata object) {
        return object.getMetadata() != null && object.getMetadata().getDeletionTimestamp() != null;
    }

    static String name(HasMetadata object) {
        return object.getMetadata() == null ? "" : String.valueOf(object.getMetadata().getName());
    }

    static Optional<String> nodeName(Pod pod) {
        return Optional.ofNullable(pod.getSpec()).map(spec -> spec.getNodeName()).filter(n -> !n.isEmpty());
    }

    static Instant created(HasMetadata object) {
        return object.getMetadata() == null ? Instant.EPOCH
                : time(object.getMetadata().getCreationTimestamp()).orElse(Instant.EPOCH);
    }

    static Optional<Instant> time(String text) {
        try {
            return text == null || text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static Optional<PodCondition> condition(Pod pod, String type) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())
                        && "True".equals(c.getStatus())).findFirst();
    }

    /** The scheduler's condition when it could not place the pod (status False). */
    static Optional<PodCondition> unschedulable(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(c -> POD_SCHEDULED.equals(c.getType())
                        && "False".equals(c.getStatus())).findFirst();
    }

    /** The workload container's status. */
    static Optional<ContainerStatus> container(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        return statuses.stream().filter(s -> JobManifest.CONTAINER.equals(s.getName())).findFirst()
                .or(() -> statuses.stream().findFirst());
    }

    static Optional<ContainerStateTerminated> terminated(Pod pod) {
        return container(pod).map(ContainerStatus::getState).map(s -> s.getTerminated());
    }

    static Optional<ContainerStateWaiting> waiting(Pod pod) {
        return container(pod).map(ContainerStatus::getState).map(s -> s.getWaiting());
    }

    /** When the container started running, if it did (a runtime that could not start it reports the epoch). */
    static Optional<Instant> started(Pod pod) {
        return container(pod).map(ContainerStatus::getState).flatMap(s -> Stream.of(
                        s.getRunning() == null ? null : s.getRunning().getStartedAt(),
                        s.getTerminated() == null ? null : s.getTerminated().getStartedAt())
                .map(PodFacts::time).flatMap(Optional::stream).filter(t -> t.isAfter(Instant.EPOCH)).findFirst());
    }

    /** The program the rank runs: the first word of the workload's argv behind the shim, as the workload wrote it. */
    static Optional<String> program(Pod pod) {
        return Optional.ofNullable(pod.getSpec()).map(spec -> spec.getContainers()).flatMap(c -> c.stream()
                        .filter(container -> JobManifest.CONTAINER.equals(container.getName())).findFirst())
                .map(container -> container.getCommand())
                .filter(command -> command.size() > RankShim.ARGV_START)
                .map(command -> command.get(RankShim.ARGV_START).replace("$$", "$"));
    }

    /** The node's Ready condition when it is not True: the node stopped answering or is unhealthy. */
    static Optional<NodeCondition> notReady(Node node) {
        return node.getStatus() == null || node.getStatus().getConditions() == null ? Optional.empty()
                : node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())
                        && !"True".equals(c.getStatus())).findFirst();
    }

    static Comparator<Pod> newestFirst() {
        return Comparator.comparing((Pod pod) -> created(pod)).reversed();
    }
}
