package dev.gantry.ssh.internal;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.Session;
import dev.gantry.ssh.RemoteCommand;
import dev.gantry.ssh.ShellQuoting;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A command whose stdout is handed over line by line while it runs (logs that follow). */
public final class LineStream implements RemoteCommand {

    static final int STDERR_TAIL_BYTES = 64 * 1024;

    private final TargetConnection connection;
    private final String program;
    private final ChannelExec channel;
    private final Session session;
    private final TailBuffer stderr = new TailBuffer(STDERR_TAIL_BYTES);
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Gives the channel slot back once the command has ended, even if nobody awaits or cancels it. */
    private final ScheduledFuture<?> endWatch;
    private volatile boolean cancelled;

    private LineStream(TargetConnection connection, List<String> argv, Consumer<String> onLine) {
        this.connection = connection;
        this.program = argv.get(0);
        String command = ShellQuoting.command(argv);
        LineSplitter lines = new LineSplitter(onLine);
        this.channel = Channels.open(connection, "exec", (ChannelExec c) -> {
            c.setCommand(command);
            c.setInputStream(new ByteArrayInputStream(new byte[0]), false);
            c.setOutputStream(lines, false);
            c.setErrStream(stderr, true);
        });
        this.session = CommandRun.sessionOf(channel);
        this.endWatch = Channels.WATCHER.scheduleWithFixedDelay(() -> {
            if (channel.isClosed() || !session.isConnected()) {
                finish();
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            if (endWatch != null) {
                endWatch.cancel(false);
            }
            Channels.close(connection, channel);
        }
    }

    public static LineStream start(TargetConnection connection, List<String> argv, Consumer<String> onLine) {
        return new LineStream(connection, argv, onLine);
    }

    @Override
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!channel.isClosed() && !cancelled) {
            if (!session.isConnected()) {
                finish();
                throw CommandRun.lost(connection, program, null);
            }
            if (System.nanoTime() > deadline) {
                return OptionalInt.empty();
            }
            Thread.sleep(CommandRun.POLL_MILLIS);
        }
        int status = channel.getExitStatus();
        // No exit status and no signal: the channel ended without the command reporting. A dying session closes
        // its channels before it reads as disconnected, so the session's state cannot be the test here.
        boolean lost = !cancelled && status == -1 && channel.getExitSignal() == null;
        finish();
        if (lost) {
            throw CommandRun.lost(connection, program, null);
        }
        return OptionalInt.of(status);
    }

    @Override
    public boolean isRunning() {
        return !cancelled && !channel.isClosed() && session.isConnected();
    }

    @Override
    public String stderrText() {
        return stderr.text();
    }

    @Override
    public void cancel() {
        cancelled = true;
        Channels.stop(channel);
        finish();
    }

    @Override
    public void close() {
        cancel();
    }

    /** Splits stdout into UTF-8 lines (without the line end) and hands each one over as soon as it is complete. */
    private final class LineSplitter extends OutputStream {
        private final Consumer<String> onLine;
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
        private boolean failed;

        LineSplitter(Consumer<String> onLine) {
            this.onLine = onLine;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == '\n') {
                    partial.write(bytes, start, i - start);
                    deliver();
                    start = i + 1;
                }
            }
            partial.write(bytes, start, offset + length - start);
        }

        @Override
        public synchronized void close() {
            if (partial.size() > 0) {
                deliver();
            }
        }

        private void deliver() {
            byte[] line = partial.toByteArray();
            partial.reset();
            int end = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
            if (failed || cancelled) {
                return;
            }
            try {
                onLine.accept(new String(line, 0, end, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                // The callback runs on the session's reader thread: an escaping exception would kill every channel
                // of this host. Stop this command instead, from another thread.
                failed = true;
                byte[] note = ("gantry: line callback failed: " + e + "\n").getBytes(StandardCharsets.UTF_8);
                stderr.write(note, 0, note.length);
                Thread stopper = new Thread(LineStream.this::cancel, "gantry-ssh-cancel");
                stopper.setDaemon(true);
                stopper.start();
            }
        }
    }

    /** Keeps the last {@code capacity} bytes written. */
    private static final class TailBuffer extends OutputStream {
        private final int capacity;
        private byte[] data = new byte[0];

        TailBuffer(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int keep = Math.min(capacity, data.length + length);
            byte[] next = new byte[keep];
            int fromOld = Math.max(0, keep - length);
            System.arraycopy(data, data.length - fromOld, next, 0, fromOld);
            int fromNew = keep - fromOld;
            System.arraycopy(bytes, offset + length - fromNew, next, fromOld, fromNew);
            data = next;
        }

        synchronized String text() {
            return new String(data, StandardCharsets.UTF_8);
        }
    }
}
