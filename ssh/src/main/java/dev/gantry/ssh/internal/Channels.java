package dev.gantry.ssh.internal;

import com.jcraft.jsch.Channel;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
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

    /**
     * JSch's connect swallows interrupts: it waits for the server's confirmation, and then for the answer to the exec
     * request, in loops that catch InterruptedException and go on (clearing the flag). A caller stopped while a
     * channel opened (a log follow its user left) would run on as if never asked. So the connect runs here and the
     * caller waits for it interruptibly; daemon threads, reused, as many as channels open at once.
     */
    private static final ExecutorService CONNECTOR = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "gantry-ssh-channel-connect");
        thread.setDaemon(true);
        return thread;
    });

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
        // True once the channel, or its slot, belongs to someone else: the caller, or a connect still under way.
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
                    connectWatched(connection, channel, session, timeoutMillis);
                    opened = true;
                    return channel;
                } catch (InterruptedException e) {
                    opened = true; // the abandoned connect closes the channel and gives the slot back
                    Thread.currentThread().interrupt();
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while opening an SSH " + type
                            + " channel to " + connection.target().host() + ":" + connection.target().port(), e);
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
                    boolean neverOpened = NEVER_OPENED.contains(e.getMessage()) || writeFoundSocketClosed(e);
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

    /**
     * A write of the connect found the socket already closed on this side (JSch closes it once its reader sees the
     * server drop the connection): that write sent nothing. The connect writes the channel open and then the command
     * request, nothing after it (stdin is fed later, by another thread), so the command request cannot have gone out.
     * Seen when the server's connections were killed just as a channel was asked for: the session looked alive, and
     * the open failed with "Socket closed" instead of JSch's "session is down".
     */
    private static boolean writeFoundSocketClosed(JSchException e) {
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof java.net.SocketException && "Socket closed".equals(cause.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** Closes a channel from {@link #open} and gives its slot back. Call exactly once per channel. */
    static void close(TargetConnection connection, Channel channel) {
        close(connection, channel, false);
    }

    private static void close(TargetConnection connection, Channel channel, boolean stopFirst) {
        try {
            if (stopFirst) {
                stop(channel);
            } else {
                channel.disconnect();
            }
        } finally {
            connection.releaseChannelSlot();
        }
    }

    /**
     * Best effort: ask sshd to kill the process (servers without signal support ignore it), then close the channel.
     * The signal must never reach the server for a channel it has already freed: OpenSSH answers that by dropping
     * the whole connection, and with it every other command on the pooled session. JSch's Channel.disconnect(),
     * which its reader thread also runs when the server closes the channel, clears "connected" under the channel's
     * monitor before it sends its own close; holding that monitor here orders the two.
     */
    static void stop(Channel channel) {
        synchronized (channel) {
            if (channel.isConnected() && !channel.isClosed()) {
                try {
                    channel.sendSignal("KILL");
                } catch (Exception ignored) {
                    // The channel is closed next either way.
                }
            }
        }
        channel.disconnect();
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

    /**
     * Connects the channel, woken early when its session dies (see {@link #WATCHER}) and given up at once when the
     * calling thread is interrupted. An abandoned connect goes on in the background, woken too, and its channel is
     * stopped and its slot given back as soon as it returns: whatever it may have started on the server is stopped.
     */
    private static void connectWatched(TargetConnection connection, Channel channel, Session session,
                                       int timeoutMillis) throws JSchException, InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before the channel was opened");
        }
        ScheduledFuture<?> watch = WATCHER.scheduleWithFixedDelay(() -> {
            if (!session.isConnected()) {
                wake(channel);
            }
        }, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
        CompletableFuture<Void> connecting = CompletableFuture.runAsync(() -> {
            try {
                channel.connect(timeoutMillis);
            } catch (JSchException e) {
                throw new CompletionException(e);
            }
        }, CONNECTOR);
        connecting.whenComplete((ignored, failure) -> watch.cancel(false));
        try {
            connecting.get();
        } catch (InterruptedException e) {
            connecting.whenComplete((ignored, failure) -> close(connection, channel, true));
            wake(channel); // a wait for the server's confirmation ends now, and the connect with it
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof JSchException jsch) {
                throw jsch;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("connecting an SSH channel failed", cause);
        }
    }

    private static void wake(Channel channel) {
        synchronized (channel) {
            channel.notifyAll();
        }
    }
}
