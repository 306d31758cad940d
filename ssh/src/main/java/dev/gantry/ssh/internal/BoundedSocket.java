package dev.gantry.ssh.internal;

import com.jcraft.jsch.SocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The TCP connection of one connect attempt, made by us rather than JSch, for two reasons. It tells a host that could
 * not be reached at all (refused, no route, no answer: {@link #unreachable()}) from one that was reached and then
 * failed during the SSH handshake; only the second is worth another attempt. And it holds the whole attempt to one
 * deadline: JSch applies its connect timeout to the TCP connect and again to each read of the handshake, so a server
 * that accepts and then stalls could take several times the bound; here the socket is closed at the deadline, which
 * ends whatever JSch is waiting for.
 */
final class BoundedSocket implements SocketFactory {
    private final long deadlineNanos;
    private volatile IOException unreachable;
    private volatile Socket socket;
    private volatile ScheduledFuture<?> closer;

    BoundedSocket(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket made = new Socket();
        socket = made;
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
        try {
            made.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, left));
        } catch (IOException e) {
            unreachable = e;
            made.close();
            throw e;
        }
        closer = Channels.WATCHER.schedule(this::closeQuietly, deadlineNanos - System.nanoTime(),
                TimeUnit.NANOSECONDS);
        return made;
    }

    @Override
    public InputStream getInputStream(Socket s) throws IOException {
        return s.getInputStream();
    }

    @Override
    public OutputStream getOutputStream(Socket s) throws IOException {
        return s.getOutputStream();
    }

    /** Why the TCP connection could not be made, when it could not: the host is unreachable, not flaky. */
    Optional<IOException> unreachable() {
        return Optional.ofNullable(unreachable);
    }

    /** Whether the deadline passed before the attempt ended (the socket was closed under JSch). */
    boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    /** The attempt ended (connected or failed): the session's socket is no longer ours to close. */
    void release() {
        ScheduledFuture<?> pending = closer;
        if (pending != null) {
            pending.cancel(false);
        }
    }

    private void closeQuietly() {
        try {
            Socket s = socket;
            if (s != null) {
                s.close();
            }
        } catch (IOException e) {
            // closing is all we want; a socket that fails to close is gone for JSch too
        }
    }
}
