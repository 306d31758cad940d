package dev.gantry.backend.batch.internal.logs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogSink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A follow of a task's logs running in the background, for tests that act on the task while it is followed. */
public final class Following {
    /** The follow itself: a {@code TaskLogs.read} or {@code Backend.logs} with {@code LogOptions.following()}. */
    @FunctionalInterface
    public interface Follow {
        void into(LogSink sink) throws InterruptedException;
    }

    private final List<LogLine> lines = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Void> done;

    private Following(Follow follow) {
        done = CompletableFuture.runAsync(() -> {
            try {
                follow.into(lines::add);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Starts the follow and returns once its first line came (30 s at most). */
    public static Following started(Follow follow) throws InterruptedException {
        Following following = new Following(follow);
        Instant deadline = Instant.now().plusSeconds(30);
        while (following.lines.isEmpty()) {
            assertTrue(Instant.now().isBefore(deadline), "the follow delivered no line");
            Thread.sleep(20);
        }
        return following;
    }

    /** Waits for the follow to return (60 s at most) and answers the texts of its lines of {@code stream}. */
    public List<String> ended(LogLine.Stream stream) throws Exception {
        done.get(60, TimeUnit.SECONDS);
        synchronized (lines) {
            return lines.stream().filter(line -> line.stream() == stream).map(LogLine::text).toList();
        }
    }
}
