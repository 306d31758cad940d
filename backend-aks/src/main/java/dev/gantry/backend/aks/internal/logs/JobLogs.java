package dev.gantry.backend.aks.internal.logs;

import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import dev.gantry.backend.aks.internal.render.JobManifest;
import dev.gantry.backend.aks.internal.state.RankPods;
import dev.gantry.backend.aks.internal.status.JobStatuses;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A job's output: one log per rank's pod (the container's stdout and stderr merged, so every line is STDOUT),
 * {@link LogLine#node()} the rank, {@code tailLines} per rank. Following streams each rank's current pod, moves to
 * the replacement after a requeue, and returns once the job has ended and every stream is drained.
 */
public final class JobLogs {
    private final KubeConnection connection;
    private final JobStatuses statuses;
    private final Duration poll;

    public JobLogs(KubeConnection connection, JobStatuses statuses, Duration poll) {
        this.connection = connection;
        this.statuses = statuses;
        this.poll = poll;
    }

    public void logs(JobRef ref, LogOptions options, LogSink sink) throws InterruptedException {
        if (!options.stdout() && !options.stderr()) {
            return;
        }
        if (options.follow()) {
            try (RankStreams streams = new RankStreams(connection, options.tailLines())) {
                follow(ref, streams, sink);
            }
            return;
        }
        List<Pod> pods = pods(ref.id());
        if (pods.isEmpty()) {
            statuses.status(ref); // JOB_NOT_FOUND for a job nobody knows; a known one simply has no output yet
        }
        for (Map.Entry<Integer, Pod> rank : RankPods.withLogs(pods).entrySet()) {
            if (Thread.interrupted()) {
                throw new InterruptedException("reading the logs of " + ref.id() + " was interrupted");
            }
            String text = log(RankPods.name(rank.getValue()), options);
            text.lines().forEach(line -> sink.accept(new LogLine(LogLine.Stream.STDOUT, rank.getKey(), line)));
        }
    }

    /**
     * One pod's log; empty when the pod was deleted after it was listed (a cancel, a TTL, pod GC of a lost node),
     * since its output went with it.
     */
    private String log(String name, LogOptions options) {
        var pod = connection.client().pods().withName(name).inContainer(JobManifest.CONTAINER);
        return connection.call("reading the log of pod " + name, () -> {
            try {
                return options.tailLines().isPresent() ? pod.tailingLines(options.tailLines().getAsInt()).getLog()
                        : pod.getLog();
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                    return "";
                }
                throw e;
            }
        });
    }

    private void follow(JobRef ref, RankStreams streams, LogSink sink) throws InterruptedException {
        while (true) {
            JobStatus status = statuses.status(ref);
            RankPods.withLogs(statuses.cachedPods(ref.id()).orElseGet(() -> pods(ref.id())))
                    .forEach((rank, pod) -> streams.open(rank, RankPods.name(pod)));
            streams.drain(sink, poll);
            if (status.state().isTerminal() && streams.allEnded()) {
                streams.drain(sink, Duration.ZERO);
                return;
            }
        }
    }

    private List<Pod> pods(String name) {
        return connection.call("listing the pods of job " + name, () -> connection.client().pods()
                .withLabel(JobIdentity.JOB, name).list().getItems());
    }
}
