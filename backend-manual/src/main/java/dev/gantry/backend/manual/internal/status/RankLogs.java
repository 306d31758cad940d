package dev.gantry.backend.manual.internal.status;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.LogFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/** Each rank's stdout and stderr; a line's {@code node} is its rank. Ranks are followed side by side. */
public final class RankLogs {
    private final Fleet fleet;
    private final Predicate<JobRef> ended;

    /** @param ended whether a job has ended: a followed log stops once it has and its files are drained */
    public RankLogs(Fleet fleet, Predicate<JobRef> ended) {
        this.fleet = fleet;
        this.ended = ended;
    }

    public void deliver(JobRef ref, List<MultiHostJob.Rank> ranks, LogOptions options, LogSink sink)
            throws InterruptedException {
        try {
            follow(ref, ranks, options, sink);
        } catch (RuntimeException e) {
            // An interrupt that cut a remote command or a wait for the hosts short is the interrupt, wherever it hit.
            if (Thread.interrupted()) {
                InterruptedException interrupted = new InterruptedException("reading the logs was interrupted");
                interrupted.initCause(e);
                throw interrupted;
            }
            throw e;
        }
    }

    private void follow(JobRef ref, List<MultiHostJob.Rank> ranks, LogOptions options, LogSink sink)
            throws InterruptedException {
        LogSink shared = line -> {
            synchronized (sink) {
                sink.accept(line);
            }
        };
        List<Callable<Void>> readers = new ArrayList<>();
        for (MultiHostJob.Rank rank : ranks) {
            FleetHost host = fleet.host(rank.host());
            JobDirectory job = host.directory(ref.id());
            // A remote poll is a round trip: look less often there than on this machine.
            Duration poll = host.remote() ? Duration.ofMillis(250) : Duration.ofMillis(50);
            readers.add(() -> {
                new LogFiles(host.host(), List.of(
                        new LogFiles.LogFile(LogLine.Stream.STDOUT, rank.rank(), job.file(JobDirectory.STDOUT)),
                        new LogFiles.LogFile(LogLine.Stream.STDERR, rank.rank(), job.file(JobDirectory.STDERR))),
                        () -> ended.test(ref), poll).deliver(options, shared);
                return null;
            });
        }
        if (readers.size() == 1 || !options.follow()) {
            for (Callable<Void> reader : readers) {
                call(reader);
            }
            return;
        }
        List<Future<Void>> running = new ArrayList<>();
        for (Callable<Void> reader : readers) {
            running.add(fleet.submit(reader));
        }
        try {
            for (Future<Void> future : running) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof InterruptedException i) {
                        throw i;
                    }
                    Fleet.unwrap(future);
                }
            }
        } finally {
            running.forEach(f -> f.cancel(true));
        }
    }

    /** Runs a reader; what a remote command cut short by an interrupt throws is turned into the interrupt above. */
    private static void call(Callable<Void> reader) throws InterruptedException {
        try {
            reader.call();
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new GantryException(ErrorCode.INTERNAL, e.getMessage(), e);
        }
    }
}
