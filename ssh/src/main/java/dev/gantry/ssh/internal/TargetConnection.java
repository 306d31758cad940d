package dev.gantry.ssh.internal;

import com.jcraft.jsch.Session;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.ssh.ReconnectPolicy;
import dev.gantry.ssh.SshTarget;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * The one session a pool keeps for a target. It connects on first use and reconnects, with backoff, when the session
 * has died; callers open a channel per command on whatever session is current.
 */
public final class TargetConnection {

    private final SshTarget target;
    private final ReconnectPolicy policy;
    private final RandomGenerator random;
    private final AtomicInteger sessionsOpened;
    /** Channels open at once on the session; servers refuse more than they allow (OpenSSH: MaxSessions, 10). */
    private final Semaphore channels;
    private final int maxChannels;
    private Session session;
    private boolean closed;

    public TargetConnection(SshTarget target, ReconnectPolicy policy, RandomGenerator random,
                            AtomicInteger sessionsOpened, int maxChannels) {
        this.maxChannels = maxChannels;
        this.channels = new Semaphore(maxChannels, true);
        this.target = target;
        this.policy = policy;
        this.random = random;
        this.sessionsOpened = sessionsOpened;
    }

    public SshTarget target() {
        return target;
    }

    /**
     * The live session, connecting if there is none. Only a handshake that failed after the host accepted the TCP
     * connection is retried: sshd drops connections beyond its MaxStartups while many clients connect at once, and
     * while it restarts it may accept and close; both pass within moments. A host that refuses the connection or does
     * not answer fails at once (BACKEND_UNAVAILABLE): waiting out a backoff would only delay the error (a refused
     * port stays refused for seconds at least), and a timeout has already waited its bound. Refused host keys and
     * logins are not retried either. Attempts stop at the policy's count or the connect timeout, whichever is first.
     */
    public synchronized Session session() {
        if (closed) {
            throw new IllegalStateException("this SSH pool is closed");
        }
        if (session != null && session.isConnected()) {
            return session;
        }
        session = null;
        long deadline = System.nanoTime() + target.connectTimeout().toNanos();
        GantryException last = null;
        for (int attempt = 1; attempt <= policy.maxAttempts(); attempt++) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                session = SessionOpener.open(target, deadline);
                sessionsOpened.incrementAndGet();
                return session;
            } catch (GantryException e) {
                if (e.code() != ErrorCode.REMOTE_ERROR) {
                    throw e;
                }
                last = e;
            }
            Duration pause = policy.backoffAfter(attempt, random);
            long pauseNanos = Math.min(pause.toNanos(), deadline - System.nanoTime());
            if (attempt == policy.maxAttempts() || pauseNanos <= 0) {
                break;
            }
            try {
                Thread.sleep(pauseNanos / 1_000_000, (int) (pauseNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while reconnecting to "
                        + target.host() + ":" + target.port(), e);
            }
        }
        String why = last == null ? "no attempt fitted in the connect timeout" : last.getMessage();
        throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot connect to " + target.host() + ":" + target.port()
                + " within " + target.connectTimeout().toMillis() + " ms (connect timeout, reconnects included): "
                + why + "; check that the host is up and sshd listens on port " + target.port(), last);
    }

    /** Takes one of the channel slots, waiting at most the connect timeout for one to free up. */
    void acquireChannelSlot() {
        try {
            if (!channels.tryAcquire(target.connectTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "all " + maxChannels + " channels to "
                        + target.host() + ":" + target.port() + " stayed busy for the connect timeout ("
                        + target.connectTimeout().toMillis() + " ms); fewer commands at once, or a larger "
                        + "per-host channel limit if the server's MaxSessions allows it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for a channel to "
                    + target.host() + ":" + target.port(), e);
        }
    }

    void releaseChannelSlot() {
        channels.release();
    }

    /** Drops the session if it is still the given one (a channel on it failed); the next use reconnects. */
    public synchronized void discard(Session broken) {
        if (session == broken) {
            session = null;
        }
        broken.disconnect();
    }

    public synchronized void close() {
        closed = true;
        if (session != null) {
            session.disconnect();
            session = null;
        }
    }
}
