package dev.gantry.ssh.internal;

import com.jcraft.jsch.Channel;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Opens one channel per command on a target's pooled session. */
final class Channels {

    /**
     * JSch waits for the server's answer to a channel open on the channel's monitor for the whole connect timeout, and
     * is not woken when the session dies meanwhile (a server that dropped the connection just before we asked). This
     * watcher wakes it, so a dead session costs milliseconds instead of the connect timeout.
     */
    static final ScheduledExecutorService WATCHER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "gantry-ssh-channel-watch");
        thread.setDaemon(true);
        return thread;
    });
    private static final long WATCH_MILLIS = 20;

    private Channels() {
    }

    /** JSch's messages for a channel the server never confirmed: no command request can have been sent on it. */
    private static final Set<String> NEVER_OPENED = Set.of("session is down", "channel is not opened.");
    /** Pause before asking again when the server refused a channel (its per-connection limit, briefly exceeded). */
    private static final long REFUSED_PAUSE_MILLIS = 50;

    /**
     * A connected channel of the given type ("exec", "sftp"). When the session turns out dead before the server
     * confirmed the channel, the session is replaced and the open retried once: no command was sent, so nothing can
     * run twice. A command request that may have reached the server is never re-sent. A session that does not answer
     * within the connect timeout is dropped, so the next command reconnects instead of waiting on it again.
     */
    @SuppressWarnings("unchecked")
    static <C extends Channel> C open(TargetConnection connection, String type, Consumer<C> configure) {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, connection.target().connectTimeout().toMillis());
        long deadline = System.nanoTime() + connection.target().connectTimeout().toNanos();
        connection.acquireChannelSlot();
        boolean opened = false;
        try {
            for (int attempt = 1; ; attempt++) {
                Session session = connection.session();
                C channel = null;
                long started = System.nanoTime();
                try {
                    channel = (C) session.openChannel(type);
                    if (channel == null) {
                        // JSch answers null instead of throwing when the session broke while the channel was made.
                        throw new JSchException("session is down");
                    }
                    configure.accept(channel);
                    connectWatched(channel, session, timeoutMillis);
                    opened = true;
                    return channel;
                } catch (JSchException e) {
                    if (finishedWhileConnecting(channel, e)) {
                        opened = true;
                        return channel;
                    }
                    if (channel != null) {
                        channel.disconnect();
                    }
                    boolean sessionDied = !session.isConnected();
                    boolean unanswered = System.nanoTime() - started >= timeoutMillis * 1_000_000L;
                    boolean neverOpened = NEVER_OPENED.contains(e.getMessage());
                    if (sessionDied || unanswered) {
                        connection.discard(session);
                    }
                    if (sessionDied && attempt == 1 && neverOpened) {
                        continue;
                    }
                    // Refused outright: a channel we just closed may not be freed on the server yet.
                    if (!sessionDied && !unanswered && neverOpened
                            && System.nanoTime() + REFUSED_PAUSE_MILLIS * 1_000_000L < deadline) {
                        pause(connection);
                        continue;
                    }
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot open an SSH " + type + " channel to "
                            + connection.target().host() + ":" + connection.target().port() + ": "
                            + (unanswered ? "no answer within the connect timeout ("
                            + connection.target().connectTimeout().toMillis() + " ms)"
                            : SessionOpener.rootMessage(e))
                            + (sessionDied ? "; the connection was lost" : ""), e);
                }
            }
        } finally {
            if (!opened) {
                connection.releaseChannelSlot();
            }
        }
    }

    /**
     * A command so quick that the server had run it and closed its channel before JSch finished connecting it: JSch
     * sends the exec request, then starts the thread that feeds stdin, and the server's close clears that thread in
     * between (a NullPointerException inside connect). The command ran once, and its output and exit status arrived
     * before the close: that is its run, to be read like any other, never a reason to send it again. (It cannot have
     * needed its stdin: without it a command that reads stdin would still be waiting.) A channel the server refused
     * is closed too, with the refusal's reason as its "exit status", but JSch reports it without such a cause.
     */
    private static boolean finishedWhileConnecting(Channel channel, JSchException e) {
        return e.getCause() instanceof NullPointerException && channel instanceof ChannelExec exec
                && exec.isClosed() && exec.getExitStatus() != -1;
    }

    /** Closes a channel from {@link #open} and gives its slot back. Call exactly once per channel. */
    static void close(TargetConnection connection, Channel channel) {
        channel.disconnect();
        connection.releaseChannelSlot();
    }

    private static void pause(TargetConnection connection) {
        try {
            Thread.sleep(REFUSED_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while opening a channel to "
                    + connection.target().host() + ":" + connection.target().port(), e);
        }
    }

    private static void connectWatched(Channel channel, Session session, int timeoutMillis) throws JSchException {
        ScheduledFuture<?> watch = WATCHER.scheduleWithFixedDelay(() -> {
            if (!session.isConnected()) {
                synchronized (channel) {
                    channel.notifyAll();
                }
            }
        }, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
        try {
            channel.connect(timeoutMillis);
        } finally {
            watch.cancel(false);
        }
    }
}
