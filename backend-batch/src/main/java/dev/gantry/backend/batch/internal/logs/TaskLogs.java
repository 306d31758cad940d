package dev.gantry.backend.batch.internal.logs;

import com.microsoft.azure.batch.protocol.models.CloudTask;
import com.microsoft.azure.batch.protocol.models.SubtaskInformation;
import com.microsoft.azure.batch.protocol.models.TaskGetOptions;
import com.microsoft.azure.batch.protocol.models.TaskState;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.render.TaskRef;
import dev.gantry.backend.batch.internal.state.Requeues;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import dev.gantry.backend.batch.internal.status.RankNodes;
import dev.gantry.backend.batch.internal.status.TrackedTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A task's {@code stdout.txt} and {@code stderr.txt} through Batch's file API; for a multi-node task, each rank's
 * {@code rank-N.stdout}/{@code rank-N.stderr} through the node file API at the node that ran it, with
 * {@link LogLine#node()} = N.
 * <ul>
 *   <li>{@code tailLines}: the file's length (its properties), then a range from the end, widened until enough
 *       lines have come;</li>
 *   <li>follow: polls {@code bytes=OFFSET-} until the task has completed and its output is drained; a task
 *       requeued on another node is read again from the start of its new run; an interrupt stops it at once;</li>
 *   <li>files Batch removed ({@code TaskFilesCleanedup}, the node gone) are a clear {@code REMOTE_ERROR}.</li>
 * </ul>
 * A held task (not yet in Batch) has no output: the caller waits for it to be added before following it.
 */
public final class TaskLogs {
    /** The first range a tail reads: most tails of a few lines fit in it. */
    static final int FIRST_WINDOW = 8 * 1024;
    /** How often follow asks for new output, by default. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    static final String TASK_FIELDS = "id,state,nodeInfo,executionInfo";

    private final AccountCalls calls;
    private final BatchFiles files;
    private final RankNodes rankNodes;
    private final Duration pollInterval;

    /**
     * @param calls the account's calls, each through the one retry policy: a read is one range request, sent again
     *     on its own, so no line is delivered twice
     */
    public TaskLogs(AccountCalls calls, Duration pollInterval) {
        this.calls = Objects.requireNonNull(calls, "calls");
        this.files = new BatchFiles(calls);
        this.rankNodes = new RankNodes(calls);
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    }

    public void read(TrackedTask task, LogOptions options, LogSink sink) throws InterruptedException {
        read(task, options, sink, () -> { });
    }

    /**
     * @param runSeen told each time following sees a run of the task it had not seen (the first, or another after a
     *     requeue), before that run's output is read: the caller polls the status then, so that a requeue the
     *     follow reads across is counted as an eviction even when nothing else polls meanwhile
     */
    public void read(TrackedTask task, LogOptions options, LogSink sink, Runnable runSeen)
            throws InterruptedException {
        if (task.held()) {
            return;
        }
        List<OutputFile> outputs = new ArrayList<>();
        for (int rank = 0; rank < task.nodes(); rank++) {
            if (options.stdout()) {
                outputs.add(new OutputFile(LogLine.Stream.STDOUT, rank));
            }
            if (options.stderr()) {
                outputs.add(new OutputFile(LogLine.Stream.STDERR, rank));
            }
        }
        try {
            if (options.follow()) {
                follow(task, options, outputs, sink, runSeen);
            } else {
                once(task, options, outputs, sink);
            }
        } catch (FilesGone e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "the output of batch job " + task.ref().id()
                    + " cannot be read: " + e.getMessage());
        } catch (RuntimeException e) {
            // An interrupt during a call surfaces from the SDK as an InterruptedIOException wrapped in a
            // RuntimeException, and may clear the flag on the way.
            if (Thread.currentThread().isInterrupted() || causedByInterrupt(e)) {
                Thread.interrupted();
                throw new InterruptedException("stopped reading logs");
            }
            throw e;
        }
    }

    private void once(TrackedTask task, LogOptions options, List<OutputFile> outputs, LogSink sink)
            throws InterruptedException {
        locate(task, outputs, task.nodes() > 1 ? Optional.of(getTask(task.ref())) : Optional.empty());
        for (OutputFile output : outputs) {
            interruptible();
            if (output.location != null) {
                deliver(output, options, false, sink);
                output.lines.flush().forEach(text -> sink.accept(output.line(text)));
            }
        }
    }

    private void follow(TrackedTask task, LogOptions options, List<OutputFile> outputs, LogSink sink,
                        Runnable runSeen) throws InterruptedException {
        Optional<TaskRecord.Sighting> lastRun = Optional.empty();
        while (true) {
            interruptible();
            CloudTask now = getTask(task.ref());
            boolean completed = now.state() == TaskState.COMPLETED;
            // Another run (another start time or node: a requeue) writes its output anew, from its start.
            Optional<TaskRecord.Sighting> run = Requeues.sighting(now);
            boolean anotherRun = run.isPresent() && !run.equals(lastRun);
            if (task.nodes() == 1 && anotherRun && lastRun.isPresent()) {
                outputs.forEach(OutputFile::restart);
            }
            lastRun = run.isPresent() ? run : lastRun;
            if (anotherRun) {
                runSeen.run();
            }
            if (run.isEmpty() && !completed) {
                // Not running (waiting, preparing, requeued): there is no run's output to read, and a read now could
                // deliver the first lines of a run that starts meanwhile before that run is known, so that its
                // requeue would go unseen (the next run would look like the first).
                Thread.sleep(pollInterval.toMillis());
                continue;
            }
            try {
                locate(task, outputs, Optional.of(now));
                for (OutputFile output : outputs) {
                    interruptible();
                    if (output.location != null) {
                        deliver(output, options, true, sink);
                    }
                }
            } catch (FilesGone e) {
                if (completed) {
                    throw e;
                }
                // The node under a running task left the pool (a preemption): the task runs again elsewhere.
            }
            if (completed) {
                outputs.forEach(output -> output.lines.flush().forEach(text -> sink.accept(output.line(text))));
                return;
            }
            Thread.sleep(pollInterval.toMillis());
        }
    }

    /** Where each output is now: the task's own files, or each rank's on its node once that is known. */
    private void locate(TrackedTask task, List<OutputFile> outputs, Optional<CloudTask> now) {
        TaskRef ref = task.ref();
        if (task.nodes() == 1) {
            outputs.forEach(output -> output.at(new FileLocation.TaskFile(ref.jobId(), ref.taskId(),
                    output.stream == LogLine.Stream.STDOUT ? "stdout.txt" : "stderr.txt")));
            return;
        }
        CloudTask cloud = now.orElseThrow();
        if (cloud.nodeInfo() == null || cloud.nodeInfo().nodeId() == null) {
            return;
        }
        String root = cloud.nodeInfo().taskRootDirectory();
        for (OutputFile output : outputs) {
            if (output.rank == 0) {
                output.at(new FileLocation.NodeFile(task.poolId(), cloud.nodeInfo().nodeId(), root + "/rank-0."
                        + suffix(output)));
            }
        }
        if (outputs.stream().noneMatch(output -> output.rank > 0 && output.location == null)) {
            return;
        }
        List<SubtaskInformation> subtasks = rankNodes.subtasks(ref);
        Map<String, Integer> ranks = rankNodes.ranks(task.poolId(), subtasks, task.nodes());
        for (SubtaskInformation subtask : subtasks) {
            Integer rank = subtask.nodeInfo() == null ? null : ranks.get(subtask.nodeInfo().nodeId());
            for (OutputFile output : outputs) {
                if (rank != null && output.rank == rank) {
                    output.at(new FileLocation.NodeFile(task.poolId(), subtask.nodeInfo().nodeId(),
                            RankNodes.rankFile(subtask, rank, suffix(output))));
                }
            }
        }
    }

    private static String suffix(OutputFile output) {
        return output.stream == LogLine.Stream.STDOUT ? "stdout" : "stderr";
    }

    /** The first read of a file is its tail when asked for one; every later read goes on from where it stopped. */
    private void deliver(OutputFile output, LogOptions options, boolean follow, LogSink sink) {
        if (!output.started && options.tailLines().isPresent()) {
            Optional<Long> length = files.length(output.location);
            if (length.isEmpty()) {
                return;
            }
            output.started = true;
            tail(output, length.get(), options.tailLines().getAsInt(), follow, sink);
            return;
        }
        output.started = true;
        byte[] bytes = files.range(output.location, output.offset, -1);
        output.offset += bytes.length;
        output.lines.add(bytes).forEach(text -> sink.accept(output.line(text)));
    }

    /**
     * The last {@code count} lines: ranges from the end, four times wider each time, until they hold that many
     * lines or reach the start. Following, an unfinished last line is left to the reads that complete it.
     */
    private void tail(OutputFile output, long length, int count, boolean follow, LogSink sink) {
        for (long window = FIRST_WINDOW; ; window *= 4) {
            long start = Math.max(0, length - window);
            byte[] bytes = length == 0 ? new byte[0] : files.range(output.location, start, length - 1);
            LineBuffer decoded = new LineBuffer();
            List<String> lines = new ArrayList<>(decoded.add(bytes));
            int unfinished = decoded.pending();
            if (start > 0) {
                if (lines.isEmpty()) {
                    continue;
                }
                lines.remove(0); // the window began inside this line
            }
            if (!follow) {
                lines.addAll(decoded.flush());
            }
            if (lines.size() >= count || start == 0) {
                lines.subList(Math.max(0, lines.size() - count), lines.size())
                        .forEach(text -> sink.accept(output.line(text)));
                output.offset = start + bytes.length - (follow ? unfinished : 0);
                return;
            }
        }
    }

    private static boolean causedByInterrupt(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.io.InterruptedIOException && !(cause instanceof java.net.SocketTimeoutException)
                    || cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private static void interruptible() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("stopped reading logs");
        }
    }

    /** The task's state and node (follow's clock, and where a multi-node task's ranks are). */
    CloudTask getTask(TaskRef ref) {
        return calls.call("reading the state of task " + ref.id(), batch -> batch.tasks().get(ref.jobId(),
                ref.taskId(), new TaskGetOptions().withSelect(TASK_FIELDS)));
    }
}
