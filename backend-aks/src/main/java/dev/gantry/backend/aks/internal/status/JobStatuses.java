package dev.gantry.backend.aks.internal.status;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import dev.gantry.backend.aks.internal.state.KubeState;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Statuses from the cache through the status table, kept in the state directory once terminal; the few things a
 * tracking Gantry process does as it sees them: ends a multi-node job whose ranks were not all placed within the
 * gang timeout (FAILED, the Job deleted), and deletes an ended job's Secret.
 */
public final class JobStatuses implements AutoCloseable {
    private final KubeConnection connection;
    private final ClusterCache cache;
    private final JobRecords records;
    private final Duration gangTimeout;
    private final Clock clock;
    /** Ended jobs whose Secret this process deleted (or found gone), so each costs one request at most. */
    private final Set<String> secretsGone = ConcurrentHashMap.newKeySet();

    public JobStatuses(KubeConnection connection, JobRecords records, Duration gangTimeout, Duration syncWait,
                       Clock clock) {
        this.connection = connection;
        this.cache = new ClusterCache(connection, syncWait);
        this.records = records;
        this.gangTimeout = gangTimeout;
        this.clock = clock;
    }

    /** The job's status; JOB_NOT_FOUND naming the id and the namespace when neither the cluster nor the records know it. */
    public JobStatus status(JobRef ref) {
        return one(ref.id());
    }

    /** The statuses of many jobs from the cache: no request once it is warm; a job nobody knows is UNKNOWN. */
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> refs) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        for (JobRef ref : refs) {
            try {
                result.put(ref, one(ref.id()));
            } catch (GantryException e) {
                if (e.code() != ErrorCode.JOB_NOT_FOUND) {
                    throw e;
                }
                result.put(ref, JobStatus.of(JobState.UNKNOWN, e.getMessage()));
            }
        }
        return result;
    }

    /** The Jobs and pods as the cache has them, started when needed; for logs, which follow pods. */
    public Optional<List<Pod>> cachedPods(String name) {
        cache.start();
        return cache.notSynced().isPresent() ? Optional.empty() : Optional.of(cache.pods(name));
    }

    private JobStatus one(String name) {
        Optional<JobStatus> terminal = records.terminal(name);
        if (terminal.isPresent()) {
            return terminal.get();
        }
        cache.start();
        Optional<String> notSynced = cache.notSynced();
        if (notSynced.isPresent()) {
            return JobStatus.of(JobState.UNKNOWN, notSynced.get());
        }
        Optional<Job> job = cache.job(name);
        List<Pod> pods = cache.pods(name);
        if (job.isEmpty()) {
            // A submit the watch has not delivered yet: read once before calling it unknown.
            job = Optional.ofNullable(connection.call("reading Job " + name, () -> connection.client().batch()
                    .v1().jobs().withName(name).get()));
        }
        if (job.isEmpty()) {
            Optional<Instant> cancelled = records.cancelledAt(name);
            if (cancelled.isPresent()) {
                return KubeState.cancelling(pods).orElseGet(() -> records.cancelled(name, cancelled.get()));
            }
            throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + name + " in namespace "
                    + connection.namespace() + " of the Kubernetes cluster at " + connection.address()
                    + ", and this backend's records do not know it either");
        }
        Optional<JobStatus> timedOut = KubeState.gangTimedOut(job.get(), pods, gangTimeout, clock.instant());
        if (timedOut.isPresent()) {
            records.end(name, timedOut.get());
            delete(name);
            return timedOut.get();
        }
        JobStatus seen = KubeState.of(job.get(), pods, nodes(seenFailed(job.get()), pods));
        if (seen.state().isTerminal()) {
            deleteSecret(job.get()); // before the end is recorded, so that a failed delete is tried again
        }
        return records.remember(name, seen);
    }

    private static boolean seenFailed(Job job) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions()
                .stream().anyMatch(c -> ("Failed".equals(c.getType()) || "FailureTarget".equals(c.getType()))
                        && "True".equals(c.getStatus()));
    }

    /**
     * The nodes of the pods, read only for a failed job, where the table asks whether the capacity went away (a
     * force-deleted pod on a deleted node is an eviction): one LIST, once, since the status is then recorded.
     * Without permission to list nodes every node counts as present.
     */
    private Map<String, Node> nodes(boolean failed, List<Pod> pods) {
        if (!failed) {
            return Map.of();
        }
        try {
            return connection.call("listing nodes", () -> connection.client().nodes().list().getItems()).stream()
                    .collect(Collectors.toMap(n -> n.getMetadata().getName(), Function.identity(), (a, b) -> a));
        } catch (GantryException e) {
            if (e.code() != ErrorCode.AUTH_FAILED) {
                throw e;
            }
            return pods.stream().filter(p -> p.getSpec() != null && p.getSpec().getNodeName() != null)
                    .collect(Collectors.toMap(p -> p.getSpec().getNodeName(),
                            p -> new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata()
                                    .withName(p.getSpec().getNodeName()).endMetadata().build(), (a, b) -> a));
        }
    }

    /** Deletes the job with foreground propagation: its pods, Service and Secret go with it. */
    public void delete(String name) {
        connection.run("deleting Job " + name, () -> connection.client().batch().v1().jobs().withName(name)
                .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete());
    }

    /** The Secret of an ended job goes as soon as Gantry sees the end (its owner reference would keep it for the TTL). */
    private void deleteSecret(Job job) {
        String name = job.getMetadata().getName();
        if (!usesSecret(job) || !secretsGone.add(name)) {
            return;
        }
        try {
            connection.run("deleting Secret " + name + "-env", () -> connection.client().secrets()
                    .withName(name + "-env").delete());
        } catch (GantryException e) {
            secretsGone.remove(name);
            throw e;
        }
    }

    private static boolean usesSecret(Job job) {
        return job.getSpec() != null && job.getSpec().getTemplate() != null
                && job.getSpec().getTemplate().getSpec() != null && job.getSpec().getTemplate().getSpec()
                .getContainers().stream().flatMap(c -> c.getEnv() == null ? java.util.stream.Stream.empty()
                        : c.getEnv().stream()).anyMatch(e -> e.getValueFrom() != null
                        && e.getValueFrom().getSecretKeyRef() != null);
    }

    @Override
    public void close() {
        cache.close();
    }
}
