package dev.gantry.backend.aks.internal.logs;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogSink;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.render.JobManifest;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The followed log streams of one job, one per rank's pod, each read by its own thread into one queue that the
 * caller's thread drains into the sink (a sink is called on the thread that called logs). Closing closes every
 * stream, which ends the readers.
 */
final class RankStreams implements AutoCloseable {
    private final KubeConnection connection;
    private final OptionalInt tailLines;
    private final BlockingQueue<LogLine> lines = new LinkedBlockingQueue<>();
    /** The pod each rank streams now; a replacement pod opens a new stream. */
    private final Map<Integer, String> streaming = new HashMap<>();
    private final Set<Integer> tailed = new HashSet<>();
    private final Set<String> ended = ConcurrentHashMap.newKeySet();
    private final List<LogWatch> watches = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

    RankStreams(KubeConnection connection, OptionalInt tailLines) {
        this.connection = connection;
        this.tailLines = tailLines;
    }

    /** Starts streaming the rank's pod unless it streams that pod already; the tail applies to a rank's first pod. */
    void open(int rank, String pod) {
        if (pod.equals(streaming.get(rank))) {
            return;
        }
        var resource = connection.client().pods().withName(pod).inContainer(JobManifest.CONTAINER);
        boolean tail = tailLines.isPresent() && !tailed.contains(rank);
        LogWatch watch;
        try {
            watch = connection.call("following the log of pod " + pod, () -> tail
                    ? resource.tailingLines(tailLines.getAsInt()).watchLog() : resource.watchLog());
        } catch (GantryException e) {
            if (e.code() != ErrorCode.PLAN_REJECTED) {
                throw e;
            }
            return; // 400: the container is not started yet; tried again at the next poll
        }
        streaming.put(rank, pod);
        tailed.add(rank);
        watches.add(watch);
        Thread reader = new Thread(() -> read(rank, pod, watch), "gantry-aks-log-" + pod);
        reader.setDaemon(true);
        readers.add(reader);
        reader.start();
    }

    private void read(int rank, String pod, LogWatch watch) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(watch.getOutput(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(new LogLine(LogLine.Stream.STDOUT, rank, line));
            }
        } catch (IOException e) {
            // The stream was closed (an interrupt, close) or cut; the pod's end is what ends the follow.
        } finally {
            ended.add(pod);
        }
    }

    /** Whether every rank's current stream reached its end. */
    boolean allEnded() {
        return ended.containsAll(streaming.values());
    }

    /** Hands the lines read so far to the sink, waiting up to {@code wait} for the first. */
    void drain(LogSink sink, Duration wait) throws InterruptedException {
        LogLine first = wait.isZero() ? lines.poll() : lines.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        sink.accept(first);
        List<LogLine> rest = new ArrayList<>();
        lines.drainTo(rest);
        rest.forEach(sink::accept);
    }

    @Override
    public void close() {
        watches.forEach(LogWatch::close);
        readers.forEach(Thread::interrupt);
    }
}
