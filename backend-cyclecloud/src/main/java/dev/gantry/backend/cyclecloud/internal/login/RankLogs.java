package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.jobs.LogFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's output: each rank's stdout and stderr, which the job's script writes to {@code rank-N.out} and
 * {@code rank-N.err} in the job's directory on the shared file system, read on the login node. A line's
 * {@code node} is its rank. How many ranks a job has is in its batch script's header, in the scheduler's words.
 */
public final class RankLogs {
    /** A remote look is a round trip: followed logs are polled at this pace. */
    private static final Duration POLL = Duration.ofMillis(250);
    private final Host login;
    private final String directory;
    private final Optional<Pattern> nodes;
    private final BooleanSupplier ended;

    /**
     * @param nodes the header line that gives the node count in its first group; empty where every job has one
     *     rank, as does a job without the line
     */
    public RankLogs(Host login, String directory, Optional<Pattern> nodes, BooleanSupplier ended) {
        this.login = login;
        this.directory = directory;
        this.nodes = nodes;
        this.ended = ended;
    }

    public void deliver(LogOptions options, LogSink sink) throws InterruptedException {
        new LogFiles(login, files(nodes()), ended, POLL).deliver(options, sink);
    }

    /** How many ranks the job has, from its batch script's header. */
    private int nodes() {
        if (nodes.isEmpty()) {
            return 1;
        }
        String script = login.readText(directory + "/job.sh").orElse("");
        Matcher m = nodes.get().matcher(script);
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    private List<LogFiles.LogFile> files(int nodes) {
        List<LogFiles.LogFile> files = new ArrayList<>();
        for (int rank = 0; rank < nodes; rank++) {
            files.add(new LogFiles.LogFile(LogLine.Stream.STDOUT, rank, directory + "/rank-" + rank + ".out"));
            files.add(new LogFiles.LogFile(LogLine.Stream.STDERR, rank, directory + "/rank-" + rank + ".err"));
        }
        return files;
    }
}
