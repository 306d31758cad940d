package dev.gantry.backend.aks.internal.state;

import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import dev.gantry.backend.aks.internal.render.JobManifest;
import dev.gantry.backend.aks.internal.render.Placement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import dev.gantry.api.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The status table: a job's state from its Job, its pods and their nodes, as the informers hold them, in one pure
 * function. Every state a Job and its pods can be in maps to one row, so that a status never depends on which
 * request happened to come first.
 *
 * <table>
 * <caption>Rows, in the order they are tried</caption>
 * <tr><th>Seen</th><th>State</th></tr>
 * <tr><td>{@code Complete}</td><td>SUCCEEDED, exit 0</td></tr>
 * <tr><td>{@value JobIdentity#CANCELLED_AT} set</td><td>CANCELLED once no pod is left; RUNNING "cancelling" before</td></tr>
 * <tr><td>{@code Failed} (or {@code FailureTarget})</td><td>see {@link JobFailure}: PREEMPTED for an eviction,
 *     else FAILED with the exit code and its words</td></tr>
 * <tr><td>suspended</td><td>PENDING, "being created" or "waiting for Kueue"</td></tr>
 * <tr><td>a rank's pod with {@code InvalidImageName}</td><td>FAILED at once</td></tr>
 * <tr><td>a rank's pod in phase Unknown</td><td>UNKNOWN</td></tr>
 * <tr><td>no rank placed, the Job's node pool being created when it was submitted</td><td>PENDING "node pool
 *     gXXXX being created"</td></tr>
 * <tr><td>a rank not placed</td><td>PENDING with the scheduler's message; "K of N ranks placed"</td></tr>
 * <tr><td>every rank placed, some starting or pulling</td><td>PROVISIONING, with the kubelet's reason</td></tr>
 * <tr><td>every rank running</td><td>RUNNING; "node X not ready since T" when a node stopped answering</td></tr>
 * </table>
 *
 * <p>Evictions: a one-node rank replaced after an eviction is counted from the Job controller's ignored-failure
 * annotation (see {@link Requeues}); the backend keeps the count from falling once the old pods are gone.
 */
public final class KubeState {
    private KubeState() {
    }

    /**
     * The job's status.
     *
     * @param job the Job
     * @param pods its pods, old ones included while they are listed
     * @param nodes the nodes by name, as far as Gantry may list them; a pod's node missing here counts as gone only
     *     for a pod that ended by a signal
     */
    public static JobStatus of(Job job, List<Pod> pods, Map<String, Node> nodes) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(pods, "pods");
        Objects.requireNonNull(nodes, "nodes");
        Requeues requeues = Requeues.of(pods);
        Optional<Instant> started = pods.stream().map(PodFacts::started).flatMap(Optional::stream)
                .min(Instant::compareTo);
        Optional<JobCondition> complete = condition(job, "Complete");
        if (complete.isPresent()) {
            Optional<Instant> ended = Optional.ofNullable(job.getStatus().getCompletionTime()).flatMap(PodFacts::time)
                    .or(() -> PodFacts.time(complete.get().getLastTransitionTime()));
            return new JobStatus(JobState.SUCCEEDED, OptionalInt.of(0), "completed", started, ended,
                    requeues.count(), requeues.last());
        }
        if (PodFacts.annotations(job).containsKey(JobIdentity.CANCELLED_AT)) {
            return cancelled(job, pods, started, requeues);
        }
        int ranks = ranks(job);
        Optional<JobCondition> failed = condition(job, "Failed").or(() -> condition(job, "FailureTarget"));
        if (failed.isPresent()) {
            return JobFailure.of(failed.get(), ranks, pods, nodes, requeues, started);
        }
        if (job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend())) {
            String queue = job.getMetadata().getLabels() == null ? null
                    : job.getMetadata().getLabels().get(JobManifest.KUEUE_QUEUE_LABEL);
            String message = queue != null ? "waiting for Kueue to admit it (queue " + queue + ")"
                    : "being created (suspended until its Secret is in place)";
            return new JobStatus(JobState.PENDING, OptionalInt.empty(), message, Optional.empty(), Optional.empty(),
                    requeues.count(), requeues.last());
        }
        return RankProgress.of(ranks, pods, nodes, newPool(job)).status(started, requeues);
    }

    /**
     * The end a Gantry process tracking a multi-node job gives it when its ranks were not all placed within
     * {@code gangTimeout} of its start (early ranks would otherwise hold their GPUs while waiting for the rest):
     * FAILED, "could not start: only K of N ranks were placed in 15m: REASON". Empty while the job is within its
     * time, ended, suspended (Kueue admits it whole), fully placed, or of one node. The caller deletes the Job.
     */
    public static Optional<JobStatus> gangTimedOut(Job job, List<Pod> pods, Duration gangTimeout, Instant now) {
        int ranks = ranks(job);
        Optional<Instant> since = Optional.ofNullable(job.getStatus()).map(s -> s.getStartTime())
                .flatMap(PodFacts::time);
        boolean open = condition(job, "Complete").isEmpty() && condition(job, "Failed").isEmpty()
                && condition(job, "FailureTarget").isEmpty()
                && !PodFacts.annotations(job).containsKey(JobIdentity.CANCELLED_AT)
                && !(job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend()));
        if (ranks < 2 || !open || since.isEmpty() || since.get().plus(gangTimeout).isAfter(now)) {
            return Optional.empty();
        }
        RankProgress progress = RankProgress.of(ranks, pods, Map.of(), newPool(job));
        if (progress.placed() >= ranks) {
            return Optional.empty();
        }
        return Optional.of(new JobStatus(JobState.FAILED, OptionalInt.empty(), "could not start: only "
                + progress.placed() + " of " + ranks + " ranks were placed in " + Durations.format(gangTimeout) + ": "
                + progress.notPlacedReason(), Optional.empty(), Optional.of(now)));
    }

    /**
     * A cancelled job whose Job object is gone already (foreground deletion removes it last, but another client may
     * not): RUNNING "cancelling" while a pod of it is left; empty once none is, when it is CANCELLED.
     */
    public static Optional<JobStatus> cancelling(List<Pod> pods) {
        return pods.isEmpty() ? Optional.empty() : Optional.of(JobStatus.of(JobState.RUNNING, stopping(pods)));
    }

    /**
     * Why a cancelled job is not CANCELLED yet. An ended pod still listed counts too: its log goes when the pod is
     * deleted, so a job reported CANCELLED while one is left would show output that then vanishes.
     */
    private static String stopping(List<Pod> pods) {
        long running = pods.stream().filter(pod -> !PodFacts.ended(pod)).count();
        return running > 0 ? "cancelling: " + running + " pod(s) still stopping"
                : "cancelling: " + pods.size() + " ended pod(s) being deleted";
    }

    /** The node pool Azure was creating when the Job was submitted ({@value Placement#NEW_NODE_POOL}). */
    private static Optional<String> newPool(Job job) {
        return Optional.ofNullable(PodFacts.annotations(job).get(Placement.NEW_NODE_POOL));
    }

    private static int ranks(Job job) {
        return job.getSpec() == null || job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
    }

    private static JobStatus cancelled(Job job, List<Pod> pods, Optional<Instant> started, Requeues requeues) {
        Optional<Instant> at = PodFacts.time(PodFacts.annotations(job).get(JobIdentity.CANCELLED_AT));
        if (!pods.isEmpty()) {
            return new JobStatus(JobState.RUNNING, OptionalInt.empty(), stopping(pods), started, Optional.empty(),
                    requeues.count(), requeues.last());
        }
        return new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled", started, at, requeues.count(),
                requeues.last());
    }

    private static Optional<JobCondition> condition(Job job, String type) {
        return job.getStatus() == null || job.getStatus().getConditions() == null ? Optional.empty()
                : job.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())
                        && "True".equals(c.getStatus())).findFirst();
    }
}
