package dev.gantry.backend.aks.internal.state;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Where each rank of a Job that has not ended is: its newest pod that has not ended (a rank whose pod succeeded is
 * done), summed up into one state. While no rank is placed and the Job's node pool was being created when it was
 * submitted, that is why: the scheduler's message would only say that no node matches.
 */
final class RankProgress {
    /** Waiting reasons that keep a placed pod from starting but may still clear (a registry back, a Secret made). */
    static final Set<String> START_PROBLEMS = Set.of("ErrImagePull", "ImagePullBackOff", "CreateContainerConfigError");
    static final String INVALID_IMAGE = "InvalidImageName";

    private enum Where { DONE, NOT_PLACED, STARTING, RUNNING, UNKNOWN }

    private record Rank(int index, Where where, Optional<Pod> pod) {
    }

    private final int total;
    private final List<Rank> ranks;
    private final Map<String, Node> nodes;
    private final Optional<String> newPool;

    private RankProgress(int total, List<Rank> ranks, Map<String, Node> nodes, Optional<String> newPool) {
        this.total = total;
        this.ranks = ranks;
        this.nodes = nodes;
        this.newPool = newPool;
    }

    /**
     * @param newPool the node pool Azure was creating when the Job was submitted, if it was
     */
    static RankProgress of(int total, List<Pod> pods, Map<String, Node> nodes, Optional<String> newPool) {
        List<Rank> ranks = new ArrayList<>();
        for (int index = 0; index < total; index++) {
            int rank = index;
            List<Pod> own = pods.stream().filter(p -> PodFacts.rank(p).equals(OptionalInt.of(rank)))
                    .sorted(PodFacts.newestFirst()).toList();
            if (own.stream().anyMatch(p -> PodFacts.phase(p).equals("Succeeded"))) {
                ranks.add(new Rank(rank, Where.DONE, Optional.empty()));
                continue;
            }
            Optional<Pod> current = own.stream().filter(p -> !PodFacts.ended(p)).findFirst();
            ranks.add(new Rank(rank, current.map(RankProgress::where).orElse(Where.NOT_PLACED), current));
        }
        return new RankProgress(total, ranks, nodes, newPool);
    }

    private static Where where(Pod pod) {
        return switch (PodFacts.phase(pod)) {
            case "Running" -> Where.RUNNING;
            case "Unknown" -> Where.UNKNOWN;
            default -> PodFacts.nodeName(pod).isPresent() ? Where.STARTING : Where.NOT_PLACED;
        };
    }

    JobStatus status(Optional<Instant> started, Requeues requeues) {
        Optional<Rank> invalidImage = ranks.stream().filter(r -> r.where() == Where.STARTING
                && waitingReason(r).equals(INVALID_IMAGE)).findFirst();
        if (invalidImage.isPresent()) {
            return new JobStatus(JobState.FAILED, OptionalInt.empty(), "could not start" + rankOf(invalidImage.get())
                    + ": " + INVALID_IMAGE + ": " + waitingMessage(invalidImage.get()), started, Optional.empty(),
                    requeues.count(), requeues.last());
        }
        Optional<Rank> unknown = first(Where.UNKNOWN);
        if (unknown.isPresent()) {
            Pod pod = unknown.get().pod().orElseThrow();
            return status(JobState.UNKNOWN, "the pod of rank " + unknown.get().index() + " is in phase Unknown: its "
                    + "node " + PodFacts.nodeName(pod).orElse("?") + " stopped reporting it", started, requeues);
        }
        long placed = placed();
        if (placed < total) {
            return status(JobState.PENDING, notPlaced(placed), started, requeues);
        }
        Optional<Rank> starting = first(Where.STARTING);
        if (starting.isPresent()) {
            String reason = waitingReason(starting.get());
            String text = START_PROBLEMS.contains(reason) ? reason + ": " + waitingMessage(starting.get())
                    : "starting (" + (reason.isEmpty() ? "scheduled" : reason) + ")";
            return status(JobState.PROVISIONING, text + rankOf(starting.get()), started, requeues);
        }
        return status(JobState.RUNNING, running(), started, requeues);
    }

    /** How many ranks are placed on a node (running, starting, done or lost with their node). */
    long placed() {
        return ranks.stream().filter(r -> r.where() != Where.NOT_PLACED).count();
    }

    /** Why ranks are not placed: the node pool being created, the scheduler's own message, else what is awaited. */
    String notPlacedReason() {
        return poolBeingCreated().or(this::scheduler).orElse(ranks.stream().anyMatch(r -> r.pod().isPresent())
                ? "waiting for the scheduler" : "waiting for the Job controller to create its pods");
    }

    /** Until the first rank is placed, the pool's nodes have not joined (its autoscaler starts them one by one). */
    private Optional<String> poolBeingCreated() {
        return placed() > 0 ? Optional.empty() : newPool.map(pool -> "node pool " + pool + " being created");
    }

    private Optional<String> scheduler() {
        return ranks.stream().filter(r -> r.where() == Where.NOT_PLACED)
                .flatMap(r -> r.pod().flatMap(PodFacts::unschedulable).stream())
                .map(c -> Optional.ofNullable(c.getMessage()).orElse(String.valueOf(c.getReason()))).findFirst();
    }

    private String notPlaced(long placed) {
        String why = notPlacedReason();
        return total == 1 ? (poolBeingCreated().isEmpty() && scheduler().isPresent() ? "waiting for a node: " + why
                : why)
                : placed + " of " + total + " ranks placed: " + why;
    }

    private String running() {
        for (Rank rank : ranks) {
            Optional<String> node = rank.pod().flatMap(PodFacts::nodeName);
            Optional<NodeCondition> notReady = node.map(nodes::get).flatMap(PodFacts::notReady);
            if (notReady.isPresent()) {
                return "running; node " + node.get() + " not ready since " + notReady.get().getLastTransitionTime()
                        + Optional.ofNullable(notReady.get().getMessage()).map(m -> " (" + m + ")").orElse("");
            }
        }
        return total == 1 ? "running" : "all " + total + " ranks running";
    }

    private Optional<Rank> first(Where where) {
        return ranks.stream().filter(r -> r.where() == where).findFirst();
    }

    private String rankOf(Rank rank) {
        return total == 1 ? "" : " (rank " + rank.index() + ")";
    }

    private static String waitingReason(Rank rank) {
        return rank.pod().flatMap(PodFacts::waiting).map(ContainerStateWaiting::getReason).orElse("");
    }

    private static String waitingMessage(Rank rank) {
        return rank.pod().flatMap(PodFacts::waiting).map(ContainerStateWaiting::getMessage).orElse("");
    }

    private static JobStatus status(JobState state, String message, Optional<Instant> started, Requeues requeues) {
        return new JobStatus(state, OptionalInt.empty(), message, state == JobState.RUNNING ? started
                : Optional.empty(), Optional.empty(), requeues.count(), requeues.last());
    }
}
