package dev.gantry.backend.aks.internal.status;

import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Jobs and pods Gantry made in the namespace, as two shared informers keep them: one LIST per kind (pages of
 * 500) when they start, then one watch each; a dropped watch reconnects and a {@code 410 Gone} relists, by the
 * client. The cache answers only while both watches have a stream open ({@link
 * dev.gantry.backend.aks.internal.kube.WatchStreams}): between a stream's end and its successor's start, what it holds
 * may be stale. Started by the first status call and stopped by {@link #close}.
 */
final class ClusterCache implements AutoCloseable {
    static final long PAGE = 500;
    private static final String BY_JOB = "byJob";

    private final KubeConnection connection;
    private final Duration syncWait;
    private volatile SharedIndexInformer<Job> jobs;
    private volatile SharedIndexInformer<Pod> pods;

    ClusterCache(KubeConnection connection, Duration syncWait) {
        this.connection = connection;
        this.syncWait = syncWait;
    }

    /**
     * Starts both informers unless started, waiting up to the sync wait for their first LIST: BACKEND_UNAVAILABLE at
     * once for an API server that refuses connections, the request's error for a refused LIST (403).
     */
    synchronized void start() {
        if (jobs != null) {
            return;
        }
        connection.ensureReachable();
        String namespace = connection.namespace();
        jobs = connection.client().batch().v1().jobs().inNamespace(namespace)
                .withLabel(JobIdentity.MANAGED_BY, JobIdentity.MANAGER).withLimit(PAGE).runnableInformer(0);
        pods = connection.client().pods().inNamespace(namespace)
                .withLabel(JobIdentity.MANAGED_BY, JobIdentity.MANAGER).withLimit(PAGE).runnableInformer(0);
        pods.addIndexers(Map.of(BY_JOB, pod -> List.of(jobOf(pod))));
        // Once started, an informer always lists and watches again: its default gives up for good on a watch event
        // it cannot read, and the cache would then answer UNKNOWN until the backend is closed.
        jobs.exceptionHandler((started, failure) -> started);
        pods.exceptionHandler((started, failure) -> started);
        CompletableFuture<Void> started = CompletableFuture.allOf(jobs.start().toCompletableFuture(),
                pods.start().toCompletableFuture());
        long deadline = System.nanoTime() + syncWait.toNanos();
        try {
            started.get(syncWait.toMillis(), TimeUnit.MILLISECONDS);
            awaitStreams(deadline);
        } catch (ExecutionException e) {
            stop();
            if (e.getCause() instanceof KubernetesClientException failure) {
                throw connection.failure("listing the Jobs and pods of namespace " + namespace, failure);
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            // Still listing: statuses say UNKNOWN until it is done.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The informers' start ends once their watches are sent; the streams open a moment later, and a status asked in
     * between would be UNKNOWN for no reason.
     */
    private void awaitStreams(long deadline) throws InterruptedException {
        while (!streamsOpen() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private boolean streamsOpen() {
        String namespacePath = "/namespaces/" + connection.namespace() + "/";
        String selector = JobIdentity.MANAGED_BY + "=" + JobIdentity.MANAGER;
        return connection.watchStreams().open("/apis/batch/v1" + namespacePath + "jobs", selector)
                && connection.watchStreams().open("/api/v1" + namespacePath + "pods", selector);
    }

    /** Why the cache cannot answer now (not listed yet, a watch reconnecting), or empty when it can. */
    synchronized Optional<String> notSynced() {
        if (jobs == null) {
            return Optional.of("the job cache is not started");
        }
        if (!jobs.hasSynced() || !pods.hasSynced()) {
            return Optional.of("the Jobs and pods of namespace " + connection.namespace() + " are still being "
                    + "listed");
        }
        if (!streamsOpen()) {
            return Optional.of("the watch on namespace " + connection.namespace() + " is reconnecting to "
                    + connection.address());
        }
        return Optional.empty();
    }

    synchronized boolean started() {
        return jobs != null;
    }

    Optional<Job> job(String name) {
        return Optional.ofNullable(jobs.getStore().getByKey(connection.namespace() + "/" + name));
    }

    /** The job's pods, old ones included while they are listed. */
    List<Pod> pods(String name) {
        return pods.getIndexer().byIndex(BY_JOB, name);
    }

    static String jobOf(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(JobIdentity.JOB, "");
    }

    private void stop() {
        if (jobs != null) {
            jobs.close();
            pods.close();
        }
        jobs = null;
        pods = null;
    }

    @Override
    public synchronized void close() {
        stop();
    }
}
